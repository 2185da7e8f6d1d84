"""Reliability and security checks: faults, concurrency, bad input and leaks."""
