"""How many API processes the image starts when WEB_CONCURRENCY does not say."""

from __future__ import annotations

from pathlib import Path

import pytest

from service.gunicorn_conf import default_api_processes, usable_cpus


@pytest.mark.parametrize(("cores", "processes"), [(1, 1), (2, 1), (3, 2), (8, 7)])
def test_one_api_process_per_core_but_one_and_at_least_one(cores: int, processes: int) -> None:
    assert default_api_processes(cores) == processes


def test_a_cgroup_quota_caps_the_usable_cores(tmp_path: Path) -> None:
    cpu_max = tmp_path / "cpu.max"
    cpu_max.write_text("150000 100000\n")  # a container allowed 1.5 cores: counts as 2
    assert usable_cpus(str(cpu_max)) == min(2, usable_cpus(str(tmp_path / "absent")))
    cpu_max.write_text("max 100000\n")
    assert usable_cpus(str(cpu_max)) == usable_cpus(str(tmp_path / "absent"))


def test_a_quota_under_one_core_still_counts_one(tmp_path: Path) -> None:
    cpu_max = tmp_path / "cpu.max"
    cpu_max.write_text("20000 100000\n")
    assert usable_cpus(str(cpu_max)) == 1
