"""A test agent program for the cmd: protocol: `python agent_script.py MODE LOG`. It logs
every request it receives (and, first, its process id and the names of its environment's
variables) to LOG, one JSON line each, and answers with the example agent's policy, except:
- slow: its first answer (of all the program's runs on this LOG) comes after 3 s;
- sleepy: it sleeps 20 s before every answer;
- sleepy-twice: it sleeps 20 s before its first two answers (of all its runs on this LOG);
- garbage: every other answer is not JSON, and every third names an illegal option."""

import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from examples.agents.external_agent import answer

mode, log = sys.argv[1], Path(sys.argv[2])
naps = log.with_suffix(".naps")  # one byte per sleep, over all runs
naps.touch()
with log.open("a", encoding="utf-8") as f:
    f.write(json.dumps({"environment": sorted(os.environ), "pid": os.getpid()}) + "\n")
for n, line in enumerate(sys.stdin):
    request = json.loads(line)
    with log.open("a", encoding="utf-8") as f:
        f.write(line.strip() + "\n")
    slept = log.with_suffix(".slept")
    if mode == "slow" and not slept.exists():
        slept.touch()
        time.sleep(3)
    if mode == "sleepy" or (mode == "sleepy-twice" and naps.stat().st_size < 2):
        with naps.open("a") as counter:
            counter.write("z")
        time.sleep(20)
    if mode == "garbage" and n % 2 == 0:
        print("this is not json", flush=True)
    elif mode == "garbage" and n % 3 == 1:
        print(json.dumps({"option": "P99"}), flush=True)
    else:
        print(json.dumps(answer(request)), flush=True)
