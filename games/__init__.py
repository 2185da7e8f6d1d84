"""Pure game rules: one package per game, the decider contract, cards and bots.

Nothing here does I/O, reads a clock or draws randomness other than from the
``random.Random`` it is handed.
"""
