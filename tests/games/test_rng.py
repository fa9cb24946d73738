"""The rules' generator (``games.base.derive_rng``) draws exactly what ``random.Random(seed)`` draws.

It is seeded at its first draw, not when it is made; every replay and audit depends on the
draws being the eager generator's, whatever mix of methods the rules call.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from games.base import SeededOnFirstDraw, derive_rng

_CALLS = st.lists(st.sampled_from([
    ("random", ()), ("getrandbits", (1,)), ("getrandbits", (70,)), ("randrange", (7,)), ("randint", (1, 6)),
    ("choice", (list(range(10)),)), ("sample", (list(range(12)), 4)), ("shuffle", None), ("uniform", (0, 3)),
    ("gauss", (0, 1)), ("randbytes", (5,)), ("choices", (list("abcde"),)), ("getstate", ()), ("expovariate", (2,)),
]), max_size=12)


def _draw(rng: random.Random, calls: list[tuple[str, Any]]) -> list[Any]:
    drawn = []
    for name, args in calls:
        if name == "shuffle":
            deck = list(range(15))
            rng.shuffle(deck)
            drawn.append(deck)
        else:
            drawn.append(getattr(rng, name)(*args))
    return drawn


@given(st.integers(min_value=0, max_value=2**256 - 1), _CALLS)
def test_every_draw_is_the_eager_generators(seed: int, calls: list[tuple[str, Any]]) -> None:
    assert _draw(SeededOnFirstDraw(seed), calls) == _draw(random.Random(seed), calls)


def test_a_state_set_or_a_seed_given_before_the_first_draw_wins() -> None:
    state = random.Random(5).getstate()
    restored = SeededOnFirstDraw(99)
    restored.setstate(state)
    reseeded = SeededOnFirstDraw(99)
    reseeded.seed(5)
    assert restored.random() == reseeded.random() == random.Random(5).random()


def test_derive_rng_is_the_documented_generator() -> None:
    digest = hashlib.sha256(b"seed:7:bot:1").digest()
    expected = random.Random(int.from_bytes(digest, "big"))
    assert derive_rng("seed", 7, "bot:1").randrange(1000) == expected.randrange(1000)
    assert derive_rng("seed", 7).sample(range(50), 5) == random.Random(
        int.from_bytes(hashlib.sha256(b"seed:7").digest(), "big")).sample(range(50), 5)
