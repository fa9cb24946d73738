"""What one RQ job costs a worker besides its own work: CPU and Redis commands per job.

    python bench/rq_job_cost.py                  # embedded Redis, 2,000 jobs
    python bench/rq_job_cost.py --jobs 5000 --redis-url redis://127.0.0.1:6379/15

Queues ``--jobs`` jobs that do nothing (``os.getpid``) the way the engine queues its drain
job (JSON serializer, no result kept), then runs them with the ``SimpleWorker`` that
``intrigue worker`` runs, in a burst. Prints the CPU of this process per job queued and per
job run, and the Redis commands per job run (``INFO commandstats``). That is the price of
asking a worker for anything through RQ, which is why a drain job lingers while steps keep
falling due (``Engine.drain_due``, docs/performance.md, section 22). Nothing is asserted:
it prints figures.
"""

from __future__ import annotations

import argparse
import time

import redis
from common import redis_for_bench
from rq import Queue
from rq.serializers import JSONSerializer
from rq.worker import SimpleWorker


def commands(client: redis.Redis) -> int:
    return sum(int(stats["calls"]) for stats in client.info("commandstats").values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--jobs", type=int, default=2000)
    parser.add_argument("--redis-url", help="a Redis to use (its database is flushed); default: an embedded one")
    args = parser.parse_args()
    with redis_for_bench(args.redis_url) as url:
        client = redis.Redis.from_url(url)
        client.flushdb()
        queue = Queue("bench-rq-job-cost", connection=client, serializer=JSONSerializer)
        started = time.process_time()
        for done in range(args.jobs):
            queue.enqueue("os.getpid", result_ttl=0, failure_ttl=3600, job_timeout=60)
            if done % 500 == 499:
                print(f"queued {done + 1}/{args.jobs}", flush=True)
        queued = time.process_time() - started
        worker = SimpleWorker([queue], connection=client, serializer=JSONSerializer)
        before, started = commands(client), time.process_time()
        worker.work(burst=True, logging_level="WARNING")
        ran, sent = time.process_time() - started, commands(client) - before
        print(f"queueing a job: {queued / args.jobs * 1e6:.0f} µs of CPU")
        print(f"running a job that does nothing: {ran / args.jobs * 1e6:.0f} µs of CPU, "
              f"{sent / args.jobs:.1f} Redis commands (over {args.jobs} jobs)")


if __name__ == "__main__":
    main()
