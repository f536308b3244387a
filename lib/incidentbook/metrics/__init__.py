"""The metrics stage: signal packs, canonical frames, and the analysis of a window."""
