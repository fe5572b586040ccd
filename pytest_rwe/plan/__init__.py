"""The plan of a run (``--rwe-plan``): every call it would make, resolved against the store,
and what the new ones will cost in tokens, USD and wall time. Pure: no pytest, no call."""

from __future__ import annotations

from pytest_rwe.plan.calls import PlannedCall, resolve_calls
from pytest_rwe.plan.estimate import Basis, Plan, Tally, build_plan
from pytest_rwe.plan.text import plan_lines

__all__ = ["Basis", "Plan", "PlannedCall", "Tally", "build_plan", "plan_lines",
           "resolve_calls"]
