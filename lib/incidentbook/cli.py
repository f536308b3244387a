"""The `incidentbook` command: a thin layer over the package.

One boundary (`_Boundary.invoke`) turns every exception a command raises into what a
person reads: an IncidentbookError is its sentence (exit status 1, or its own), a file
the system refuses is the file and why, Ctrl-C says what was kept (130), and anything
else is reported as a bug with how to report it (70). Usage errors exit 2 (click's
convention). No traceback is shown unless asked for with --debug (or
INCIDENTBOOK_DEBUG=1).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from incidentbook.errors import IncidentbookError, RecordFormatError, RecordInvalid
from incidentbook.outputs.formats import format_for
from incidentbook.outputs.render import render_case
from incidentbook.outputs.site import build_site
from incidentbook.record.model import schema_text
from incidentbook.record.store import atomic_write_text, load_record, record_files
from incidentbook.record.taxonomy import FACETS, load_taxonomy

BUG = (
    "This is a fault in incidentbook, not in your input: please report it with the command "
    "you ran and the output of `incidentbook --debug ...` (which shows where it happened)."
)


def _oserror_sentence(exc: OSError) -> str:
    """A system refusal (no space, no permission, a folder where a file should be) as the
    file and the reason."""
    where = f"{exc.filename}: " if exc.filename else ""
    reason = exc.strerror or str(exc) or type(exc).__name__
    hint = {
        "PermissionError": "; check the permissions of the file and its folder",
        "IsADirectoryError": "; a folder is in the way of the file",
        "NotADirectoryError": "; a file is in the way of a folder on that path",
        "FileExistsError": "; a file is in the way of a folder of that name",
        "FileNotFoundError": "; check the path",
    }.get(type(exc).__name__, "")
    return f"{where}{reason}{hint}"


def _exit_now(status: int) -> None:
    """Exit after an interrupt: the exit handlers run (kernels are shut down), then the
    process ends without the interpreter's own teardown, which can spin for ever on a
    process pool whose workers were just killed (CPython 3.11)."""
    import atexit

    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)


class _Boundary(click.Group):
    """The `incidentbook` group; the one place where exceptions become messages."""

    def invoke(self, ctx: click.Context):
        debug = bool(ctx.params.get("debug")) or os.environ.get("INCIDENTBOOK_DEBUG", "") not in {
            "",
            "0",
        }
        try:
            return super().invoke(ctx)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except BrokenPipeError:
            # The reader of our output went away (`| head`): nothing more to say to it.
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - stdout stays open until exit
            ctx.exit(141)
        except Exception as exc:
            if debug:
                raise
            if isinstance(exc, IncidentbookError):
                click.echo(f"error: {exc}", err=True)
                ctx.exit(exc.exit_code)
            if isinstance(exc, OSError):
                click.echo(f"error: {_oserror_sentence(exc)}", err=True)
                ctx.exit(1)
            click.echo(f"internal error: {type(exc).__name__}: {exc}\n{BUG}", err=True)
            ctx.exit(70)
        except KeyboardInterrupt:
            if debug:
                raise
            click.echo(
                "\ninterrupted: files already written are whole (every output is written to a "
                "temporary file and renamed), nothing was left half-written",
                err=True,
            )
            _exit_now(130)


class _OutputChoice(click.Choice):
    """The registered output formats (html, md, and any a package adds), looked up only
    when the option is used or its help shown."""

    def __init__(self) -> None:
        super().__init__([])

    @property
    def choices(self) -> list[str]:
        from incidentbook.outputs.formats import OUTPUTS

        return OUTPUTS.names()

    @choices.setter
    def choices(self, _value: object) -> None:
        pass


taxonomy_option = click.option(
    "--taxonomy",
    "taxonomy_file",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="INCIDENTBOOK_TAXONOMY",
    help="A taxonomy file of your own, merged over the default one (env: INCIDENTBOOK_TAXONOMY).",
)


@click.group(cls=_Boundary, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="incidentbook")
@click.option(
    "--debug",
    is_flag=True,
    help="Show the traceback of an error (env: INCIDENTBOOK_DEBUG=1).",
)
def main(debug: bool) -> None:
    """Postmortem workbooks for GPU training clusters."""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@taxonomy_option
def validate(paths: tuple[Path, ...], taxonomy_file: Path | None) -> None:
    """Check case records (YAML or JSON files, or folders of them).

    Exit status 0 when every record is valid, 1 otherwise, with one line per problem:
    file, line, field path, and what is wrong.
    """
    taxonomy = load_taxonomy(taxonomy_file)
    files = list(record_files(list(paths)))
    if not files:
        raise click.UsageError(
            f"no record files (.yaml, .yml, .json) under {', '.join(map(str, paths))}"
        )
    bad = 0
    for path in files:
        try:
            load_record(path, taxonomy)
        except RecordInvalid as exc:
            bad += 1
            for problem in exc.problems:
                click.echo(str(problem))
        except RecordFormatError as exc:
            bad += 1
            click.echo(str(exc.problem))
    good = len(files) - bad
    click.echo(f"{good} valid, {bad} invalid", err=True)
    sys.exit(1 if bad else 0)


@main.command()
@click.argument("case", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write here instead of standard output.",
)
@click.option(
    "--format",
    "fmt",
    type=_OutputChoice(),
    default=None,
    help="Default: from the output's suffix, else html.",
)
@taxonomy_option
def render(case: Path, output: Path | None, fmt: str | None, taxonomy_file: Path | None) -> None:
    """Render one case record as a self-contained HTML page or as Markdown."""
    taxonomy = load_taxonomy(taxonomy_file)
    record = load_record(case, taxonomy)
    fmt = fmt or (format_for(output) if output else "html")
    text = render_case(record, fmt, taxonomy)
    if output is None:
        click.echo(text, nl=False)
    else:
        atomic_write_text(output, text)
        click.echo(str(output))


@main.group()
def library() -> None:
    """The library of past cases."""


@library.command("build")
@click.argument("directory", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    "out",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for the site.",
)
@taxonomy_option
def library_build(directory: Path, out: Path, taxonomy_file: Path | None) -> None:
    """Build a static site of every record under DIRECTORY: index, facet pages, case pages."""
    taxonomy = load_taxonomy(taxonomy_file)
    index = build_site(
        directory, out, taxonomy, progress=lambda cid: click.echo(f"  {cid}", err=True)
    )
    click.echo(str(index))


@main.command("schema")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Write here instead of standard output.",
)
def schema_command(output: Path | None) -> None:
    """Print (or write) the JSON Schema of a case record."""
    text = schema_text()
    if output is None:
        click.echo(text, nl=False)
    else:
        atomic_write_text(output, text)
        click.echo(str(output))


@main.group("taxonomy")
def taxonomy_group() -> None:
    """The facets cases are counted by."""


@taxonomy_group.command("show")
@click.argument("facet", required=False, type=click.Choice(FACETS))
@taxonomy_option
def taxonomy_show(facet: str | None, taxonomy_file: Path | None) -> None:
    """List the known values of one facet (or all), as a tree."""
    taxonomy = load_taxonomy(taxonomy_file)
    for name in [facet] if facet else FACETS:
        click.echo(f"{name}: {taxonomy.facets[name].label}")
        for value, depth in taxonomy.tree(name):
            click.echo(f"  {'  ' * depth}{value.id:<{40 - 2 * depth}} {value.description}")


@main.command()
@click.argument("incident", type=click.Path(path_type=Path))
@click.option("--start", help="Window start, RFC 3339 with offset (default: incident.yaml's).")
@click.option("--end", help="Window end, RFC 3339 with offset (default: incident.yaml's).")
@click.option("--signal", "signals", multiple=True, help="Only these signals (repeatable).")
@click.option("--pack", help="Signal pack name or path (default: incident.yaml's).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: findings, correlations, notes.")
@click.option("--no-logs", is_flag=True, help="Analyse the metrics only.")
@click.option(
    "--signatures",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar="INCIDENTBOOK_SIGNATURES",
    help="A signature catalog of your own, merged over the bundled one.",
)
@click.option(
    "--source",
    metavar="URI",
    help="Take the metrics from a server (prometheus+http://host:9090) instead of the folder.",
)
@click.option(
    "--boot-time",
    "boot_time",
    multiple=True,
    metavar="[HOST=]TIME",
    help="A host's boot time (RFC 3339), for kernel lines timed in seconds since boot; "
    "without HOST, every host's (repeatable).",
)
def analyze(
    incident: Path,
    start: str | None,
    end: str | None,
    signals: tuple[str, ...],
    pack: str | None,
    as_json: bool,
    no_logs: bool,
    signatures: Path | None,
    source: str | None,
    boot_time: tuple[str, ...],
) -> None:
    """Find what happened in an incident folder's window: findings and what coincided.

    A folder with logs and no metrics at all is analysed from its logs alone."""
    from incidentbook.investigation import investigate
    from incidentbook.logs.read import parse_boot_times
    from incidentbook.outputs.console import analysis_json_text, print_analysis

    inv = investigate(
        incident,
        start,
        end,
        list(signals) or None,
        pack,
        logs=not no_logs,
        signatures=signatures,
        source=source,
        boot_times=parse_boot_times(boot_time) if boot_time else None,
    )
    if as_json:
        click.echo(analysis_json_text(inv))
    else:
        print_analysis(inv)


@main.command()
@click.argument("scenario")
@click.option(
    "-o", "--output", "out", required=True, type=click.Path(file_okay=False, path_type=Path)
)
@click.option(
    "--scale",
    type=click.Choice(["small", "full", "16k"]),
    default="small",
    show_default=True,
    help="full: a day at full size; 16k: a full day on 2,048 hosts x 8 GPUs (imbue-bringup)",
)
@click.option("--seed", type=int, default=0, show_default=True)
def synth(scenario: str, out: Path, scale: str, seed: int) -> None:
    """Write a simulated incident folder (and truth.json) for SCENARIO."""
    from incidentbook.scenarios.simulator import SCENARIOS, synthesize

    if scenario not in SCENARIOS:
        raise click.BadParameter(
            f"{scenario!r}; known scenarios: {', '.join(sorted(SCENARIOS))}", param_hint="SCENARIO"
        )
    path = synthesize(
        scenario, out, scale=scale, seed=seed, progress=lambda m: click.echo(m, err=True)
    )
    click.echo(str(path))


@main.group("export")
def export_group() -> None:
    """Export an incident's data for other tools."""


@export_group.command("openmetrics")
@click.argument("incident", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--start", help="Only samples from here (RFC 3339 with offset).")
@click.option("--end", help="Only samples before this (RFC 3339 with offset).")
@click.option(
    "--logs",
    "with_logs",
    is_flag=True,
    help="Also the log signatures' lines per host, as the counter log checks read.",
)
def export_openmetrics_command(
    incident: Path, output: Path, start: str | None, end: str | None, with_logs: bool
) -> None:
    """OpenMetrics text with timestamps, for promtool backfills and VictoriaMetrics imports."""
    from incidentbook.incident import IncidentFolder
    from incidentbook.investigation import make_window
    from incidentbook.outputs.export import export_openmetrics

    window = None
    if start or end:
        spec = IncidentFolder(incident).spec
        window = make_window(start or spec.window.start, end or spec.window.end)
    path, samples = export_openmetrics(incident, output, window, logs=with_logs)
    click.echo(f"{samples:,} samples", err=True)
    click.echo(str(path))


@main.command()
@click.argument("target", type=click.Path(exists=True, path_type=Path))
@click.option(
    "--library",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="Folder of case records (default: the bundled data/library).",
)
@click.option("--top", type=click.IntRange(1, 100), default=5, show_default=True)
@click.option("--json", "as_json", is_flag=True)
@taxonomy_option
def similar(
    target: Path, library: Path | None, top: int, as_json: bool, taxonomy_file: Path | None
) -> None:
    """Past cases closest to a case record or an incident folder, and why."""
    from incidentbook.notebook.cells import project_root
    from incidentbook.record.similar import similar_cases

    taxonomy = load_taxonomy(taxonomy_file)
    if target.is_dir():
        from incidentbook.investigation import investigate
        from incidentbook.record.draft import draft

        query = draft(investigate(target, taxonomy=taxonomy), taxonomy=taxonomy)
    else:
        query = load_record(target, taxonomy)
    library = library or (project_root() or Path(".")) / "data" / "library"
    matches = similar_cases(query, library, top=top, taxonomy=taxonomy)
    if as_json:
        rows = [
            {"id": m.case.id, "title": m.case.title, "score": m.score, "why": m.reasons}
            for m in matches
        ]
        click.echo(json.dumps(rows, indent=2, ensure_ascii=False))
        return
    if not matches:
        click.echo(f"no case in {library} shares a facet value with {query.id}")
    for m in matches:
        click.echo(f"{m.score:.2f}  {m.case.id}: {m.case.title}")
        for reason in m.reasons:
            click.echo(f"      {reason}")


def _library(library: Path | None) -> Path:
    from incidentbook.notebook.cells import project_root

    return library or (project_root() or Path(".")) / "data" / "library"


def _selectors(pairs: tuple[str, ...]) -> dict[str, str]:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise click.BadParameter(f"{pair!r}; write NAME=VALUE", param_hint="--selector")
        out[name.strip()] = value.strip().strip('"')
    return out


selector_option = click.option(
    "--selector",
    "selector_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A label matcher put in every expression's $selector (repeatable).",
)
library_argument = click.argument(
    "library", required=False, type=click.Path(exists=True, path_type=Path)
)


@main.group("checks")
def checks_group() -> None:
    """The library's checks: what would have caught each case early."""


@checks_group.command("export")
@library_argument
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--base-url",
    help="Where the library site is published; alerts link to BASE_URL/cases/<id>.html "
    "(default: the site's relative path).",
)
@selector_option
@taxonomy_option
def checks_export(
    library: Path | None,
    output: Path,
    base_url: str | None,
    selector_pairs: tuple[str, ...],
    taxonomy_file: Path | None,
) -> None:
    """Prometheus alerting rules from every check of the library: one group per case."""
    from incidentbook.outputs.rules import rules_text

    records = _records(library, taxonomy_file)
    text = rules_text(records, base_url=base_url, selectors=_selectors(selector_pairs))
    atomic_write_text(output, text)
    count = sum(len(r.checks) for r in records)
    with_checks = sum(bool(r.checks) for r in records)
    click.echo(f"{count} rules in {with_checks} groups", err=True)
    click.echo(str(output))


def _moment(text: str):
    from pydantic import AwareDatetime, TypeAdapter, ValidationError

    try:
        return TypeAdapter(AwareDatetime).validate_python(text)
    except ValidationError:
        raise click.UsageError(
            f"--at {text!r} is not an RFC 3339 time with an offset (2025-03-14T09:00:00Z)"
        ) from None


def _records(library: Path | None, taxonomy_file: Path | None) -> list:
    from incidentbook.record.store import load_records

    taxonomy = load_taxonomy(taxonomy_file)
    path = _library(library)
    if path.is_file():
        return [load_record(path, taxonomy)]
    return load_records(path, taxonomy)


@checks_group.command("tests")
@click.argument("case", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.argument("incident", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--rules",
    "rules_file",
    default="rules.yml",
    show_default=True,
    help="The rule file the tests load, relative to the test file (from `checks export`).",
)
@click.option(
    "--quiet",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="An incident folder of a quiet day (default: the incident's own baseline window).",
)
@click.option("--base-url", help="As given to `checks export`.")
@taxonomy_option
def checks_tests(
    case: Path,
    incident: Path,
    output: Path,
    rules_file: str,
    quiet: Path | None,
    base_url: str | None,
    taxonomy_file: Path | None,
) -> None:
    """`promtool test rules` tests of one case's rules, from its incident folder: each rule
    fires there on the hosts it should, and stays silent on a quiet day."""
    from incidentbook.outputs.rules import rule_tests, rule_tests_text

    record = load_record(case, load_taxonomy(taxonomy_file))
    tests = rule_tests(record, incident, rules_file, quiet=quiet, base_url=base_url)
    atomic_write_text(output, rule_tests_text(tests))
    for rule_id, (at, hosts) in tests.fires.items():
        click.echo(f"  {rule_id}: fires at +{at} on {len(hosts)} hosts", err=True)
    for note in tests.notes:
        click.echo(f"  note: {note}", err=True)
    click.echo(str(output))


@main.command("check")
@library_argument
@click.option("--source", required=True, metavar="URI", help="prometheus+http://HOST:PORT")
@click.option("--at", "at_time", help="Evaluate at this moment (RFC 3339; default: now).")
@click.option("--start", help="Or over a range: its start (RFC 3339 with offset).")
@click.option("--end", help="The range's end (RFC 3339 with offset).")
@click.option("--json", "as_json", is_flag=True)
@click.option("--base-url", help="Where the library site is published (for the case links).")
@selector_option
@taxonomy_option
def check_command(
    library: Path | None,
    source: str,
    at_time: str | None,
    start: str | None,
    end: str | None,
    as_json: bool,
    base_url: str | None,
    selector_pairs: tuple[str, ...],
    taxonomy_file: Path | None,
) -> None:
    """Which past incidents' precursors are present on a live cluster now.

    Evaluates every check of the library on the server. Exit status 1 when a check fires,
    0 when none does, 2 on an error.
    """
    from datetime import UTC, datetime

    from incidentbook.outputs.console import print_live_check
    from incidentbook.record.check_live import check_cluster
    from incidentbook.window import make_window

    try:
        if at_time and (start or end):
            raise click.UsageError("give --at, or --start and --end, not both")
        if bool(start) != bool(end):
            raise click.UsageError("--start and --end go together")
        records = _records(library, taxonomy_file)
        selectors = _selectors(selector_pairs)
        if start:
            window = make_window(start, end)
            result = check_cluster(records, source, window=window, selectors=selectors)
        else:
            at = _moment(at_time) if at_time else datetime.now(UTC)
            result = check_cluster(records, source, at=at, selectors=selectors)
    except click.UsageError as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(2)
    except (IncidentbookError, ValueError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(result.as_json(base_url), indent=2, ensure_ascii=False))
    else:
        print_live_check(result, base_url)
    sys.exit(1 if result.fired else 0)


def _params(pairs: tuple[tuple[str, str], ...]) -> dict[str, str]:
    return {name: value for name, value in pairs}


@main.command()
@click.argument("incident", type=click.Path(path_type=Path))
@click.option("--start", help="Window start, RFC 3339 with offset.")
@click.option("--end", help="Window end, RFC 3339 with offset.")
@click.option(
    "-p",
    "--parameter",
    "pairs",
    nargs=2,
    multiple=True,
    metavar="NAME VALUE",
    help="A workbook parameter (repeatable). Never a credential: those come from the environment.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Output folder (default: out/<incident id>).",
)
@click.option("--source", metavar="URI", help="Metrics from a server: prometheus+http://host:9090.")
@click.option(
    "--boot-time",
    "boot_time",
    multiple=True,
    metavar="[HOST=]TIME",
    help="A host's boot time (RFC 3339) for kernel lines timed since boot; without HOST, "
    "every host's (repeatable).",
)
@click.option(
    "--force", is_flag=True, help="Write into an --out folder holding another incident's outputs."
)
def run(
    incident: Path,
    start: str | None,
    end: str | None,
    pairs: tuple[tuple[str, str], ...],
    out: Path | None,
    source: str | None,
    boot_time: tuple[str, ...],
    force: bool,
) -> None:
    """Run the incident workbook through papermill; print the notebook, record and report."""
    from incidentbook.incident import IncidentFolder
    from incidentbook.logs.read import parse_boot_times
    from incidentbook.notebook.runner import run_detached

    out = out or Path("out") / IncidentFolder(incident).spec.id
    params = _params(pairs) | ({"source": source} if source else {})
    if boot_time:
        parse_boot_times(boot_time)  # a bad time is said here, not in a failed cell
        params["boot_time"] = ",".join(boot_time)
    result = run_detached(incident, out, start=start, end=end, parameters=params, force=force)
    click.echo(str(result.notebook))
    click.echo(str(result.case))
    click.echo(str(result.report))


@main.command()
@click.argument("targets", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path))
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("out"),
    show_default=True,
    help="Each incident goes to OUT/<incident id>/.",
)
@click.option("-j", "--jobs", type=click.IntRange(1, 64), default=1, show_default=True)
@click.option("-p", "--parameter", "pairs", nargs=2, multiple=True, metavar="NAME VALUE")
@click.option(
    "--fresh-kernels",
    is_flag=True,
    help="A new kernel per notebook (papermill's way) instead of one kept per worker.",
)
def regen(
    targets: tuple[Path, ...],
    out: Path,
    jobs: int,
    pairs: tuple[tuple[str, str], ...],
    fresh_kernels: bool,
) -> None:
    """Regenerate the reports of many incidents (folders, or folders of them), in parallel.

    A person's narrative (case.yaml, or edits in an earlier case.json) is kept word for
    word; only what the data gives is recomputed. One failure does not stop the others;
    the exit status is 1 if any failed.
    """
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
    from rich.table import Table

    from incidentbook.notebook.runner import check_parameters, find_incidents
    from incidentbook.notebook.runner import regen as run_all

    check_parameters(_params(pairs))  # refused before the progress bar shows
    total = len(find_incidents(targets))
    console = Console(stderr=True)
    with Progress(
        TextColumn("regenerating"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=console,
        transient=False,
    ) as progress:
        task = progress.add_task("", total=total)

        def done(outcome) -> None:
            mark = "ok" if outcome.ok else "FAILED"
            progress.update(task, advance=1, description=f"{outcome.incident.name}: {mark}")

        outcomes = run_all(
            targets,
            out,
            jobs=jobs,
            parameters=_params(pairs),
            on_done=done,
            reuse_kernels=not fresh_kernels,
        )
    table = Table(title="Regeneration", title_justify="left")
    for column in ("incident", "result", "seconds", "report or reason"):
        table.add_column(column)
    for o in outcomes:
        if o.ok:
            table.add_row(o.incident.name, "ok", f"{o.result.seconds:.1f}", str(o.result.report))
        else:
            table.add_row(o.incident.name, "[red]failed[/red]", "", o.error)
    Console(width=None if Console().is_terminal else 160).print(table)
    failed = sum(not o.ok for o in outcomes)
    click.echo(f"{len(outcomes) - failed} succeeded, {failed} failed", err=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
