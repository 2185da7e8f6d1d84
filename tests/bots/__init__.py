"""Bots: legal moves for every game, no peeking at hidden cards, and basic sense."""
