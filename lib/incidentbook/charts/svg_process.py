"""The SVG converter as a process of its own: Vega-Lite specs in, SVG text out.

    python .../svg_process.py        (run as a file, so that only vl_convert is imported)

vl_convert holds Python's lock while it draws (about 0.2 s a chart), so a workbook that
converted its report's charts in its own process spent that time doing nothing else. Run
here, beside the kernel, the conversions go on while the workbook drafts the record.

One JSON request per line on stdin, {"id", "spec", "vl_version"}; one JSON answer per
line on stdout, {"id", "svg"} or {"id", "error"}. The process ends at the end of its
input, which is also what it sees when the process that started it is gone however it
ended (killed included): it never outlives its kernel. It runs in a session of its own
(charts.svg._Converter): interrupting a kernel (JupyterLab's stop button, a run's
shutdown) signals the kernel's whole process group, and the interrupt is meant for the
code the kernel runs, not for its converter, which would end with a traceback and leave
the rest of the session without it.
"""

from __future__ import annotations

import json
import sys


def serve(requests, answers) -> None:
    import vl_convert as vlc

    # The runtime's start is most of a first conversion: paid before the first request.
    vlc.vegalite_to_svg({"mark": "point"})
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        try:
            answer = {
                "id": request["id"],
                "svg": vlc.vegalite_to_svg(request["spec"], vl_version=request["vl_version"]),
            }
        except Exception as exc:  # the caller converts again in its own process and reports
            answer = {"id": request["id"], "error": f"{type(exc).__name__}: {exc}"}
        answers.write(json.dumps(answer) + "\n")
        answers.flush()


if __name__ == "__main__":
    serve(sys.stdin, sys.stdout)
