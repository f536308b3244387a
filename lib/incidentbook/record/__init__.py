"""The case record: its model, the taxonomy, reading and writing, drafting, similar cases."""
