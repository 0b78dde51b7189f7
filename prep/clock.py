"""The one place prep reads the wall clock. PREP_NOW pins it (ISO time) for tests and demos."""

from __future__ import annotations

import os
from datetime import UTC, datetime

from prep.errors import UsageError

ENV_NOW = "PREP_NOW"


def now() -> datetime:
    pinned = os.environ.get(ENV_NOW)
    if pinned:
        try:
            moment = datetime.fromisoformat(pinned)
        except ValueError:
            raise UsageError(f"{ENV_NOW}={pinned!r} is not an ISO date-time") from None
        if not 1970 <= moment.year <= 2999:  # date arithmetic (due dates, forecasts) must stay in range
            raise UsageError(f"{ENV_NOW}={pinned!r} is outside the years 1970-2999")
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return datetime.now(UTC)
