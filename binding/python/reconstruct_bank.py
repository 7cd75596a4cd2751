"""A client of reconstruct's bank for Python (see docs/binding.md).

It starts ``reconstruct bank serve --stdio`` and speaks its protocol: one JSON
action a line in, one JSON response a line out. It needs nothing but the
standard library and the ``reconstruct`` executable.

    from reconstruct_bank import Bank, BankError

    with Bank("bank.db") as bank:
        bank.create("objects", spec)
        seen = bank.observe("objects")
        proposal = bank.propose("objects", expected_revision=seen["revision"],
                                updates={...})
        bank.commit(proposal["receipt"])

A response with ``"ok": false`` raises BankError, whose ``code`` is the
protocol's error code (``stale_revision``, ``not_found``, ...) and whose
``exit_status`` is the status the command line would exit with.
"""

import json
import subprocess

__all__ = ["Bank", "BankError", "EXIT_STATUS"]

# The command line's exit status for each error code (others: 1).
EXIT_STATUS = {"malformed_request": 2, "internal_error": 3}


class BankError(Exception):
    """An action the bank refused: code, message and details as sent."""

    def __init__(self, action, code, message, details=None):
        super().__init__("%s: %s: %s" % (action, code, message))
        self.action = action
        self.code = code
        self.message = message
        self.details = details or {}
        self.exit_status = EXIT_STATUS.get(code, 1)


class Bank:
    """A bank served by one ``reconstruct bank serve --stdio`` process.

    path is a bank file or a postgres:// URL (None: reconstruct's own rule,
    RECONSTRUCT_BANK_PATH, else the per-user bank). executable is the
    reconstruct command (a path, or a list of arguments it starts with).
    """

    def __init__(self, path=None, executable="reconstruct"):
        argv = list(executable) if isinstance(executable, (list, tuple)) else [executable]
        argv.append("bank")
        if path is not None:
            argv += ["--bank", str(path)]
        argv += ["serve", "--stdio"]
        self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True, bufsize=1)

    def act(self, action, **fields):
        """Send one action; return its result, or raise BankError."""
        req = dict(fields)
        req["action"] = action
        if self._proc.poll() is not None:
            raise BankError(action, "internal_error", "the bank server has exited: " + self._proc.stderr.read().strip())
        self._proc.stdin.write(json.dumps(req) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            self._proc.wait()
            raise BankError(action, "internal_error", "the bank server stopped: " + self._proc.stderr.read().strip())
        resp = json.loads(line)
        if not resp.get("ok"):
            err = resp.get("error") or {}
            raise BankError(action, err.get("code", "internal_error"), err.get("message", ""), err.get("details"))
        return resp.get("result")

    # The protocol's actions.
    def observe(self, workspace, **fields):
        return self.act("observe", workspace=workspace, **fields)

    def propose(self, workspace, **fields):
        return self.act("propose", workspace=workspace, **fields)

    def commit(self, receipt):
        """Commit a receipt (or a whole propose result holding one)."""
        if isinstance(receipt, dict) and "receipt" in receipt:
            receipt = receipt["receipt"]
        return self.act("commit", receipt=receipt)

    def fork(self, workspace, name, **fields):
        return self.act("fork", workspace=workspace, name=name, **fields)

    def undo(self, workspace, **fields):
        return self.act("undo", workspace=workspace, **fields)

    def compare(self, a, b, **fields):
        return self.act("compare", a=a, b=b, **fields)

    # The base operations.
    def create(self, workspace, spec, message=None):
        fields = {"workspace": workspace, "spec": spec}
        if message is not None:
            fields["message"] = message
        return self.act("create", **fields)

    def checkout(self, workspace, revision, **fields):
        return self.act("checkout", workspace=workspace, revision=revision, **fields)

    def register(self, name, function=None, program=None):
        if (function is None) == (program is None):
            raise ValueError("register: give exactly one of function and program")
        if function is not None:
            return self.act("register", name=name, function=function)
        return self.act("register", name=name, program=program)

    def list(self):
        return self.act("list")

    def log(self, workspace):
        return self.act("log", workspace=workspace)

    def events(self, workspace):
        return self.act("events", workspace=workspace)

    def close(self):
        """Stop the server (it ends at the end of its input)."""
        if self._proc.stdin and not self._proc.stdin.closed:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        for f in (self._proc.stdout, self._proc.stderr):
            if f:
                f.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
