"""Simulated incidents faithful to the library's cases, for tests and benchmarks."""
