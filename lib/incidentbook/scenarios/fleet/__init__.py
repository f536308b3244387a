"""One model of a synchronous training job on a cluster, and the faults scenarios inject
into it (model.py: the job and what exporters see; faults.py: what goes wrong;
scenario.py: a cluster, its faults and the truth)."""
