"""Wiring a platform to RQ, once, in the entry points: the bot-turn scheduler, long jobs,
and (for tests and the embedded server) jobs run in this very process."""

from __future__ import annotations

from core.config import Config
from core.jobs import NoJobs
from stores.platform import Platform
from workers import runtime
from workers.long_jobs import RQLongJobs
from workers.matchmaking import RQMatches
from workers.scheduling import RQScheduler
from workers.tournaments import RQTournaments
from workers.webhooks import RQDeliveries


def wire(platform: Platform, bots: bool = True) -> Platform:
    """Give ``platform`` RQ's long jobs and webhook deliveries and, with ``bots``, RQ's
    bot-turn scheduler; with ``inline_jobs`` configured, jobs enqueued here also run here."""
    if bots:
        platform.handler.scheduler = RQScheduler(platform)
    platform.jobs = RQLongJobs(platform)
    platform.webhooks.runner = RQDeliveries(platform)
    platform.tournament_runner = RQTournaments(platform)
    platform.match_runner = RQMatches(platform)
    if platform.config.inline_jobs:
        runtime.use(platform)
    return platform


def platform_from_config(config: Config) -> Platform:
    return wire(Platform.from_config(config))


def use(platform: Platform) -> Platform:
    """Make jobs in this process act through ``platform``, which can start jobs itself
    (a platform built without a job runner gets RQ's)."""
    if isinstance(platform.jobs, NoJobs):
        platform.jobs = RQLongJobs(platform)
    runtime.use(platform)
    return platform


def process_platform() -> Platform:
    """This process's platform, built once from the environment and wired, the one its
    jobs act through too."""
    runtime.install(lambda: platform_from_config(Config.from_env()))
    return runtime.current()
