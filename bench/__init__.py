"""Benchmarks: strength and speed measured, never asserted by a timed test."""
