"""Benchmarks: a synthetic federation and ``hoshi bench`` (docs/scaling.md)."""
