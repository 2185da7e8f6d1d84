"""Projections: a game's table folded from its events, snapshots, views and read models."""
