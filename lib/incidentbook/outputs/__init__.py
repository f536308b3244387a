"""What a run writes: the case record and its report page, the library site, exports."""
