"""Take what identifies a person or a machine out of pasted text before it is stored.

A paste is someone's terminal: home folders carry user names, prompts carry user and
host names, logs carry addresses, e-mails and tokens. Each is replaced by a placeholder
that still reads as what it was (`<user>`, `<host>`, `<ip>`, `<email>`, `<token>`), so the
error stays recognisable and nothing of the person remains.
"""

import re

EMAIL_RE = re.compile(r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}")
# Secrets with a known shape, then any long run of key-like characters.
_TOKENS = [
    re.compile(
        r"\b(?:gh[pousr]|github_pat|glpat|hf|xox[abpors]|sk|pk|rk|sk-proj|npm|pypi)[-_][A-Za-z0-9_-]{16,}"
    ),
    re.compile(r"\bAKIA[0-9A-Z]{16}\b"),
    re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),  # JWT
    re.compile(
        r"(?i)\b(bearer|token|api[_-]?key|password|passwd|secret|authorization)(\s*[:=]\s*|\s+)(\"?)[^\s\"',;]{6,}"
    ),
    re.compile(
        r"(?<![A-Za-z0-9/+_-])(?=[A-Za-z0-9+/_-]*\d)(?=[A-Za-z0-9+/_-]*[A-Za-z])[A-Za-z0-9+/_-]{32,}={0,2}"
    ),
]
_URL_CREDENTIALS = re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://)[^/\s:@]+(?::[^/\s@]*)?@")
_IPV4 = re.compile(r"(?<![\d.])(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)(?![\d.])")
_IPV6 = re.compile(
    r"(?<![0-9A-Fa-f:])(?=[0-9A-Fa-f:]*\d)(?:(?:[0-9A-Fa-f]{1,4}:){7}[0-9A-Fa-f]{1,4}"
    r"|(?:[0-9A-Fa-f]{1,4}:){1,6}(?::[0-9A-Fa-f]{1,4}){1,6}|(?:[0-9A-Fa-f]{1,4}:){1,7}:|::1)(?![0-9A-Fa-f:])"
)
# Home folders: /home/alice, /Users/alice, C:\Users\alice, /root is left (not a name).
_HOME = re.compile(
    r"(?P<pre>(?:/home|/Users|/var/home)/|[A-Za-z]:\\\\?(?:Users|Documents and Settings)\\\\?)"
    r"(?P<user>[^/\\\s:'\"]+)"
)
_PROMPT = re.compile(
    r"(?m)^(?P<user>[a-z_][a-z0-9_.-]{0,31})@(?P<host>[A-Za-z0-9][A-Za-z0-9.-]{0,62})(?=[:\s]|$)"
)
# Host names inside private networks, and any name under a domain of one's own machine.
_HOST = re.compile(
    r"(?i)\b[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?)*"
    r"\.(?:local|lan|internal|intranet|corp|home|localdomain|private)\b"
)
_PLACEHOLDERS = ("<user>", "<host>")


def contains_email(text: str) -> bool:
    return bool(EMAIL_RE.search(text))


def scrub(text: str) -> str:
    """The text with user names, hosts, addresses, e-mails and tokens replaced."""
    users = {m.group("user") for m in _HOME.finditer(text)} | {
        m.group("user") for m in _PROMPT.finditer(text)
    }
    hosts = {m.group("host") for m in _PROMPT.finditer(text)}
    text = _URL_CREDENTIALS.sub(r"\1<user>@", text)
    text = EMAIL_RE.sub("<email>", text)
    for pattern in _TOKENS[:3]:
        text = pattern.sub("<token>", text)
    text = _TOKENS[3].sub(lambda m: f"{m.group(1)}{m.group(2)}{m.group(3)}<token>", text)
    text = _TOKENS[4].sub("<token>", text)
    text = _HOME.sub(lambda m: m.group("pre") + "<user>", text)
    text = _PROMPT.sub("<user>@<host>", text)
    text = _IPV4.sub("<ip>", text)
    text = _IPV6.sub("<ip>", text)
    text = _HOST.sub("<host>", text)
    # A user or host name seen in a path or prompt is a name wherever else it appears.
    for name, placeholder in [(u, "<user>") for u in users] + [(h, "<host>") for h in hosts]:
        if len(name) >= 3 and name not in _PLACEHOLDERS:
            text = re.sub(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", placeholder, text)
    return text
