"""What identifies a person or machine is gone from a paste before it is kept; the error stays."""

import pytest

from app.services.proposals.scrub import contains_email, scrub


@pytest.mark.parametrize(
    ("text", "gone", "kept"),
    [
        ('File "/home/alice/proj/train.py", line 3', "alice", '/home/<user>/proj/train.py", line 3'),
        ("open /Users/bob.smith/Library/x.plist failed", "bob.smith", "/Users/<user>/Library"),
        (r"C:\Users\carol\AppData\Local\pip", "carol", r"C:\Users\<user>\AppData"),
        ("dave@build-07:~/src$ make", "build-07", "<user>@<host>:~/src$ make"),
        ("could not connect to 10.20.30.40:5432", "10.20.30.40", "<ip>:5432"),
        ("listen fe80::1ff:fe23:4567:890a failed", "fe80::", "listen <ip> failed"),
        ("mail erin@example.com for access", "erin@example.com", "mail <email> for access"),
        ("git clone https://frank:s3cret@git.example.org/r.git", "s3cret", "https://<user>@git.example.org"),
        ("export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ghp_abc", "GITHUB_TOKEN="),
        (
            "Authorization: Bearer eyJhbGciOiJIUzI1.eyJzdWIiOiIxMjM0.SflKxwRJSMeKKF2QT4fw",
            "eyJhbG",
            "Authorization:",
        ),
        ("password=hunter2hunter2 rejected", "hunter2", "password=<token> rejected"),
        ("resolve db1.corp.internal: no such host", "db1.corp.internal", "resolve <host>: no such host"),
    ],
)
def test_identifying_parts_are_replaced(text, gone, kept):
    scrubbed = scrub(text)
    assert gone not in scrubbed
    assert kept in scrubbed


def test_a_user_name_found_in_a_path_is_removed_everywhere():
    text = "/home/grace/run.sh: permission denied for grace (uid 1000)"
    assert scrub(text) == "/home/<user>/run.sh: permission denied for <user> (uid 1000)"
    # Seen both in a prompt and in a path, it is still one name to remove.
    both = "dave@build-07:/home/dave/src$ make: dave may not write here"
    assert scrub(both) == "<user>@<host>:/home/<user>/src$ make: <user> may not write here"
    # Three letters are a name; shorter ones would blank out ordinary words.
    assert scrub("/home/ann/run.sh: ann is not in sudoers") == "/home/<user>/run.sh: <user> is not in sudoers"
    assert scrub("/home/al/run.sh: al is not in sudoers") == "/home/<user>/run.sh: al is not in sudoers"


@pytest.mark.parametrize(
    "text",
    [
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
        "fatal: not a git repository (or any of the parent directories): .git",
        "ERROR: Could not find a version that satisfies the requirement torch==2.9.9",
        "std::bad_alloc at 12:30:45 in /usr/lib/python3.11/site-packages/x.py",
        "Could not resolve host: github.com",
    ],
)
def test_the_error_itself_is_left_alone(text):
    assert scrub(text) == text


def test_emails_are_recognised():
    assert contains_email("write to a.b+c@mail.example.co.uk")
    assert not contains_email("pip install a@1.0")
