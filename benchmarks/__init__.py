"""Benchmarks: a synthetic federation and ``hoshi bench`` (README, Scaling)."""
