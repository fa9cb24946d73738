"""Shared test configuration: hypothesis profiles.

``default`` keeps the suite fast on a 2-core machine; ``long`` (HYPOTHESIS_PROFILE=long)
runs the big random-play searches for a soak before a release.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("long", deadline=None, max_examples=20_000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
