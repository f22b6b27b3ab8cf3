"""What the benchmark ran on: CPU, cores, memory, OS, the load average and niceness at the start
(bench/peers/run.py and bench/tpch/run.py put it into their reports)."""

import os
import platform
import subprocess


def machine_info():
    info = {"cpu": platform.processor() or "?", "os": platform.platform()}
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        fields = dict(line.split(":", 1) for line in lscpu.splitlines() if ":" in line)
        fields = {k.strip(): v.strip() for k, v in fields.items()}
        sockets = int(fields.get("Socket(s)", "1"))
        info.update(cpu=fields.get("Model name", info["cpu"]), cpus=int(fields.get("CPU(s)", "0")),
                    cores=int(fields.get("Core(s) per socket", "0")) * sockets,
                    threads_per_core=int(fields.get("Thread(s) per core", "1")))
    except (OSError, ValueError):
        info.update(cpus=os.cpu_count(), cores="?", threads_per_core="?")
    with open("/proc/meminfo") as f:
        total_kb = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
    info["memory_gib"] = round(total_kb / 2**20, 1)
    info["load_start"] = "%.2f" % os.getloadavg()[0]
    info["nice"] = os.nice(0)
    return info
