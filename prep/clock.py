"""The one place prep reads the wall clock. PREP_NOW pins it (ISO time) for tests and demos."""

from __future__ import annotations

import os
from datetime import datetime, timezone

from .errors import UsageError

ENV_NOW = "PREP_NOW"


def now() -> datetime:
    pinned = os.environ.get(ENV_NOW)
    if pinned:
        try:
            moment = datetime.fromisoformat(pinned.replace("Z", "+00:00"))
        except ValueError:
            raise UsageError(f"{ENV_NOW}={pinned!r} is not an ISO date-time") from None
        return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)
    return datetime.now(timezone.utc)
