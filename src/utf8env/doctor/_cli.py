"""`utf8env doctor [--verbose] [--json] [--save FILE] [--compare FILE] [--no-pythons]`: the glue
between the options and the parts; cli.py's handler calls run()."""
from .. import _output as output


def run(args):
    """Exit status: 0 no problems here, 1 problems found (usage errors are raised)."""
    from . import _findings as findings, _place as places, _render as render, _snapshot as snapshot
    there = snapshot.load(args.compare) if args.compare else None    # bad input first
    here = places.gather(pythons=not args.no_pythons)
    diagnosis = findings.diagnose(here)
    data = render.to_object(here, diagnosis) if (args.json or args.save or there) else None
    if args.save:
        snapshot.save(args.save, data)
    compared = snapshot.compare(there, here, diagnosis) if there is not None else None
    if args.json:
        import json
        if compared is not None:
            data = dict(data, compare=dict(compared, file=args.compare))
        out = json.dumps(data, indent=2) + "\n"
    else:
        out = render.to_text(here, diagnosis, args.verbose)
        if compared is not None:
            out += snapshot.to_text(args.compare, compared,
                                    findings.problems(diagnosis.findings))
        out = output.for_terminal(out)
    # Whatever stdout's codec: bytes out, as UTF-8 (undecodable input as its own bytes).
    output.write_bytes(out.encode("utf-8", "surrogateescape"))
    return 1 if findings.problems(diagnosis.findings) else 0
