"""The event envelope, the hash chain and the Redis Streams event store."""
