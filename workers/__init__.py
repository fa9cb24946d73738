"""RQ jobs and the worker process: system steps, deadlines, the sweep that backs them."""
