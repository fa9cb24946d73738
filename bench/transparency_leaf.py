"""Redis bytes per leaf of the transparency log, measured with MEMORY USAGE and INFO.

    python bench/transparency_leaf.py                 # 100,000 leaves
    python bench/transparency_leaf.py --leaves 20000 --url redis://...

Appends leaves shaped like a finished game's (a 12-character id, two 64-hex hashes, a
timestamp: the canonical JSON the server writes) to a fresh embedded Redis, then sums
MEMORY USAGE over the log's keys, split into the hashes of the tree and the leaves'
data, and reports the whole server's growth per leaf too. The count is in leaves, not
seconds, so the figure does not depend on how busy the machine is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import redis  # noqa: E402

from bench.common import redis_for_bench  # noqa: E402
from events.transparency_log import TransparencyLog  # noqa: E402


def leaf(i: int) -> tuple[str, bytes]:
    game = f"{i:012x}"
    body = {"game": game, "final_hash": hashlib.sha256(b"f%d" % i).hexdigest(),
            "seed_hash": hashlib.sha256(b"s%d" % i).hexdigest(), "ended_at": "2026-11-29T09:30:00.123Z"}
    return game, json.dumps(body, sort_keys=True, separators=(",", ":")).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--leaves", type=int, default=100_000)
    parser.add_argument("--url", help="a Redis to use (its keys under the prefix are replaced); default: a fresh one")
    args = parser.parse_args()
    with redis_for_bench(args.url) as url:
        client = redis.Redis.from_url(url)
        log = TransparencyLog(client, prefix="bench-tlog")
        for key in client.scan_iter("bench-tlog:*"):
            client.delete(key)
        before = int(client.info("memory")["used_memory"])
        for i in range(args.leaves):
            log.append(*leaf(i))
        after = int(client.info("memory")["used_memory"])
        tree = sum(int(client.memory_usage(k, samples=0) or 0) for k in client.scan_iter("bench-tlog:{tlog}:node:*"))
        leaves = int(client.memory_usage(log.leaves_key, samples=0) or 0)
        n = args.leaves
        print(f"{n} leaves, {len(leaf(0)[1])} bytes of data each")
        print(f"tree hashes:   {tree / n:7.1f} bytes per leaf")
        print(f"leaf records:  {leaves / n:7.1f} bytes per leaf")
        print(f"Redis growth:  {(after - before) / n:7.1f} bytes per leaf "
              f"(ten million: {(after - before) / n * 1e7 / 2**30:.2f} GiB)")


if __name__ == "__main__":
    main()
