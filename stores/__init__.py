"""The Redis-backed adapters of the core's interfaces (vault, players, chat, webhooks), and the wiring."""
