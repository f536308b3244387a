"""The logs stage: reading the hosts' logs, signatures, templates, and their findings."""
