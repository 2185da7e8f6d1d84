"""Reliability and security checks (issue 12): faults, concurrency, bad input and leaks."""
