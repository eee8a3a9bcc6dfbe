"""Writes Convoy's DocC landing page (Sources/Convoy/Convoy.docc/Convoy.md): the guides of Docs/
and one topic group per source folder listing its public types, so the catalog shows the
architecture and never misses a type.

`--check` writes nothing and fails when the committed page differs from what it would write,
so a new public type or guide cannot be forgotten; scripts/check-docs runs it.
"""
import collections
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(__file__), "..")
SOURCES = os.path.join(ROOT, "Sources", "Convoy")
PAGE = os.path.join(SOURCES, "Convoy.docc", "Convoy.md")

# Folders in the order a request travels, each with the title of its topic group.
GROUPS = [
    ("Connection", "Connecting to a server"),
    ("Core", "Describing requests"),
    ("HTTP", "HTTP values"),
    ("Responses", "Responses"),
    ("Bodies", "Request bodies"),
    ("Transport", "Transports, TLS and proxies"),
    ("Pipeline", "Adapters, decisions and retries"),
    ("Jobs", "Jobs: operations, chains, groups, tokens and progress"),
    ("DurableJobs", "Jobs that outlive the process"),
    ("Connectivity", "Connectivity: waiting for the network"),
    ("OAuth", "OAuth2: configuration, grants, sessions and logins"),
    ("Streaming", "Streams and server-sent events"),
    ("WebSocket", "WebSocket sessions"),
    ("Downloads", "Downloads and uploads"),
    ("Caching", "HTTP caching"),
    ("Cookies", "Cookie storage"),
    ("Pagination", "Paginated lists"),
    ("Observation", "Events and logging"),
    ("Errors", "Errors and human messages"),
    ("Support", "Support"),
]
# Types that exist on Apple platforms only: the catalog is rendered on Linux.
APPLE_ONLY = {"KeychainSessionStore", "WebAuthenticationSessionAgent"}
DECLARATION = re.compile(
    r"^( *)(?:@\w+\s+)*(?:public\s+(?:final\s+)?(?:class|struct|enum|protocol|actor)|open\s+class)"
    r"\s+([A-Z][A-Za-z0-9]*)",
    re.M,
)


def public_types():
    found = collections.OrderedDict()
    for directory, _, files in sorted(os.walk(SOURCES)):
        if ".docc" in directory:
            continue
        for name in sorted(files):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            folder = os.path.relpath(path, SOURCES).split(os.sep)[0]
            text = open(path, encoding="utf-8").read()
            # A file wrapped in `#if os(Linux)` indents its top-level types by two spaces.
            wrapped = text.lstrip().startswith("#if os(Linux)")
            for match in DECLARATION.finditer(text):
                indent, type_name = len(match.group(1)), match.group(2)
                if type_name in APPLE_ONLY:
                    continue
                if indent == 0 or (indent == 2 and wrapped):
                    found.setdefault(folder, [])
                    if type_name not in found[folder]:
                        found[folder].append(type_name)
    return found


def article_name(guide):
    """The name DocC knows a guide by: that of its link in the catalog, which differs from the
    file's where the file's name is a symbol's (Docs/WebSocket.md beside the `WebSocket` class)."""
    catalog = os.path.join(SOURCES, "Convoy.docc")
    for link in os.listdir(catalog):
        path = os.path.join(catalog, link)
        if os.path.islink(path) and os.path.basename(os.readlink(path)) == guide:
            return link[:-3]
    return guide[:-3]


def page():
    guides = sorted(article_name(name) for name in os.listdir(os.path.join(ROOT, "Docs")) if name.endswith(".md"))
    types = public_types()
    unknown = sorted(set(types) - {folder for folder, _ in GROUPS})
    if unknown:
        sys.exit(f"scripts/docc_topics.py: give these folders a topic group: {', '.join(unknown)}")
    lines = [
        "# ``Convoy``",
        "",
        "An app's whole networking layer: endpoints as small value types, one straight road for "
        "every call, jobs that chain and group calls, OAuth2 sessions, streams, downloads and human "
        "error messages, on Linux and Apple platforms.",
        "",
        "## Overview",
        "",
        "A request travels one road: a ``RequestDescribing`` value, a ``NetworkRequestOperation`` on "
        "the connection's queue, the adapters, an ``HTTPTransport``, the decisions, and a typed value "
        "or a ``ServerConnectionError`` that ``ErrorMessageProvider`` words for people. The guides "
        "below are the package's `Docs` folder, linked into this catalog rather than copied.",
        "",
        "## Topics",
        "",
        "### Guides",
        "",
    ]
    lines += [f"- <doc:{guide}>" for guide in guides] + [""]
    for folder, title in GROUPS:
        if folder in types:
            lines += [f"### {title}", ""] + [f"- ``{name}``" for name in types[folder]] + [""]
    return "\n".join(lines).rstrip() + "\n"


def main():
    text = page()
    if "--check" in sys.argv[1:]:
        current = open(PAGE, encoding="utf-8").read() if os.path.exists(PAGE) else ""
        if current != text:
            sys.exit("Convoy.docc/Convoy.md is out of date: run scripts/regenerate (or python3 scripts/docc_topics.py)")
        return
    with open(PAGE, "w", encoding="utf-8") as handle:
        handle.write(text)


if __name__ == "__main__":
    main()
