"""Background work on RQ: bot turns, turn timers, replays, audits and projections."""
