"""What every HTTP source needs: credentials from the environment, one client, retries.

A source for another HTTP API (Loki, Elasticsearch, a trainer's metrics endpoint) builds
an HTTPClient with its own environment prefix, error classes and status hints, and calls
`post` from as many threads as it likes:

* Credentials come only from the environment, never from parameters or the URI (papermill
  writes parameters into the executed notebook): PREFIX_TOKEN (or _TOKEN_FILE) for a
  bearer token, PREFIX_USER with _PASSWORD (or _PASSWORD_FILE) for basic auth,
  PREFIX_CERT / _KEY / _CA for client certificates and a private CA. Every message the
  client writes has them masked (`redact`).
* Connection errors, timeouts (a whole answer must arrive within `timeout`), 429 and 5xx
  are retried with exponential backoff, Retry-After honoured (capped), then raised with
  the URL, the status and an excerpt of the body. Other statuses raise at once, with a
  hint for the common ones; a caller's `reject` hook turns a status into its own error
  (a Prometheus 400 is a PromQL error).
* An `abort` event stops the retries of every request: the first fault of a batch
  stops the others.
"""

from __future__ import annotations

import email.utils
import functools
import json
import os
import ssl
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime

import httpx

from incidentbook.errors import IncidentbookError


class HTTPSourceError(IncidentbookError):
    """A server that could not give what was asked."""


class Unreachable(HTTPSourceError):
    """No connection to the server (refused, unknown host, TLS handshake failed)."""


class Timeout(HTTPSourceError):
    """The server did not answer in time, or stopped sending mid-answer."""


class HTTPStatusError(HTTPSourceError):
    """An HTTP error status the retries did not cure (or that retrying cannot cure)."""

    def __init__(self, message: str, status: int, body: str):
        super().__init__(message)
        self.status, self.body = status, body


@dataclass(frozen=True)
class ErrorKinds:
    """The error classes a source raises, so its users can catch its own (subclasses of
    the ones above, and of the source's stage error such as MetricsError)."""

    base: type[HTTPSourceError] = HTTPSourceError
    unreachable: type[HTTPSourceError] = Unreachable
    timeout: type[HTTPSourceError] = Timeout
    status: type[HTTPStatusError] = HTTPStatusError


class Aborted(Exception):
    """Another request of the batch failed; this one gave up (never reaches a user)."""


# --- credentials: the environment only ------------------------------------------------------


def _env_secret(
    prefix: str, name: str, environ: Mapping[str, str], error: type[Exception]
) -> str | None:
    """PREFIX_NAME's value, or the stripped contents of the file PREFIX_NAME_FILE names."""
    value = environ.get(prefix + name)
    if value:
        return value
    path = environ.get(prefix + name + "_FILE")
    if not path:
        return None
    try:
        with open(path, encoding="utf-8") as fh:
            return fh.read().strip() or None
    except OSError as exc:
        raise error(
            f"{prefix}{name}_FILE names {path}, which cannot be read ({exc.strerror})"
        ) from None


@dataclass(frozen=True)
class Credentials:
    headers: dict[str, str]
    auth: tuple[str, str] | None
    tls: ssl.SSLContext | None
    secrets: tuple[str, ...]

    @classmethod
    def from_env(
        cls,
        prefix: str,
        environ: Mapping[str, str] | None = None,
        error: type[Exception] = HTTPSourceError,
    ) -> Credentials:
        environ = os.environ if environ is None else environ
        headers, auth, secrets = {}, None, []
        token = _env_secret(prefix, "TOKEN", environ, error)
        user = environ.get(prefix + "USER")
        password = _env_secret(prefix, "PASSWORD", environ, error)
        if token and user:
            raise error(f"both {prefix}TOKEN and {prefix}USER are set: choose bearer or basic auth")
        if token:
            headers["Authorization"] = f"Bearer {token}"
            secrets.append(token)
        elif user:
            if password is None:
                raise error(f"{prefix}USER is set without {prefix}PASSWORD(_FILE)")
            auth = (user, password)
            secrets.append(password)
        cert, key, ca = (environ.get(prefix + n) for n in ("CERT", "KEY", "CA"))
        tls = None
        if cert or ca:
            try:
                tls = ssl.create_default_context(cafile=ca or None)
                if cert:
                    tls.load_cert_chain(cert, key or None)
            except (OSError, ssl.SSLError) as exc:
                raise error(
                    f"the TLS files in {prefix}CERT / {prefix}KEY / {prefix}CA cannot be used: "
                    f"{exc}"
                ) from None
        elif key:
            raise error(f"{prefix}KEY is set without {prefix}CERT")
        return cls(headers, auth, tls, tuple(s for s in secrets if s))

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "***")
        return text


@functools.cache
def _default_tls() -> ssl.SSLContext:
    return ssl.create_default_context()


# --- the client ---------------------------------------------------------------------------------

Reject = Callable[[int, str], Exception | None]
"""(status, excerpt) -> an error to raise at once instead of the generic one, or None."""


@dataclass
class HTTPClient:
    """Requests to one server, with the source's credentials, errors and retry policy.

    `service` names the server in messages ("the Prometheus server"); `hints` adds a
    sentence to an error status (401: which variables to set).
    """

    url: str
    env_prefix: str
    service: str = "the server"
    errors: ErrorKinds = field(default_factory=ErrorKinds)
    hints: Mapping[int, str] = field(default_factory=dict)
    timeout: float = 30.0
    retries: int = 3
    backoff: float = 0.5
    max_retry_after: float = 60.0
    concurrency: int = 4
    credentials: Credentials = field(init=False)

    def __post_init__(self) -> None:
        self.retries = max(0, self.retries)
        self.concurrency = max(1, self.concurrency)
        self.credentials = Credentials.from_env(self.env_prefix, error=self.errors.base)
        prefix = self.env_prefix
        self.hints = {
            401: f"; set {prefix}TOKEN or {prefix}USER/{prefix}PASSWORD",
            403: "; the credentials in the environment lack access",
            **self.hints,
        }

    def redact(self, text: str) -> str:
        return self.credentials.redact(text)

    def session(self) -> httpx.Client:
        """An httpx client for a batch of requests (close it, or use it in `with`)."""
        creds = self.credentials
        return httpx.Client(
            headers={
                "Accept": "application/json",
                "Accept-Encoding": "identity",
                "User-Agent": "incidentbook",
                **creds.headers,
            },
            auth=creds.auth,
            verify=self._verify(),
            timeout=httpx.Timeout(self.timeout),
            limits=httpx.Limits(
                max_connections=self.concurrency, max_keepalive_connections=self.concurrency
            ),
            trust_env=False,
            follow_redirects=False,
        )

    def _verify(self) -> ssl.SSLContext | bool:
        if self.credentials.tls is not None:
            return self.credentials.tls
        if self.url.startswith("https:"):
            return _default_tls()
        return False  # plain HTTP: no TLS context to build (loading CAs costs ~15 ms a pull)

    def _read(self, client: httpx.Client, path: str, form: dict) -> tuple[int, dict, bytes]:
        deadline = time.monotonic() + self.timeout
        with client.stream("POST", self.url + path, data=form) as response:
            parts = []
            for part in response.iter_bytes():
                parts.append(part)
                if time.monotonic() > deadline:
                    raise httpx.ReadTimeout("the answer took too long", request=response.request)
            return response.status_code, response.headers, b"".join(parts)

    def _retry_after(self, headers) -> float | None:
        value = headers.get("Retry-After")
        if not value:
            return None
        try:
            seconds = float(value)
        except ValueError:
            try:
                when = email.utils.parsedate_to_datetime(value)
            except (TypeError, ValueError):
                return None
            seconds = (when - datetime.now(UTC)).total_seconds()
        return min(max(seconds, 0.0), self.max_retry_after)

    def excerpt(self, body: bytes) -> str:
        """The start of an answer's body (its `error` field when it is JSON), masked."""
        text = body[:2000].decode("utf-8", "replace")
        try:
            doc = json.loads(body)
            if isinstance(doc, dict) and doc.get("error"):
                text = str(doc["error"])
        except ValueError:
            pass
        text = " ".join(text.split())
        return self.redact(text[:300] + ("..." if len(text) > 300 else ""))

    def post(
        self,
        client: httpx.Client,
        path: str,
        form: dict,
        what: str,
        abort: threading.Event,
        reject: Reject | None = None,
    ) -> bytes:
        """POST a form with retries; the body of a 200 answer, else a clear error.

        `what` names the request in messages ("signal x's query (...)").
        """
        errors = self.errors
        last: Exception | None = None
        for attempt in range(self.retries + 1):
            if abort.is_set():
                raise Aborted
            delay = min(self.backoff * 2**attempt, 30.0)
            try:
                status, headers, body = self._read(client, path, form)
            except httpx.TimeoutException:
                last = errors.timeout(
                    f"{self.url} did not answer {what} within {self.timeout:g} s "
                    f"({attempt + 1} attempt{'s' if attempt else ''})"
                )
            except (httpx.ConnectError, httpx.UnsupportedProtocol) as exc:
                last = errors.unreachable(
                    f"cannot connect to {self.service} at {self.url} "
                    f"({self.redact(str(exc)) or type(exc).__name__}); "
                    "is it running, and is the URI right?"
                )
            except (httpx.RemoteProtocolError, httpx.ReadError, httpx.WriteError) as exc:
                last = errors.base(
                    f"{self.url} broke off its answer to {what} "
                    f"({self.redact(str(exc)) or type(exc).__name__})"
                )
            else:
                if status == 200:
                    return body
                excerpt = self.excerpt(body)
                if status == 429 or status >= 500:
                    last = errors.status(
                        f"{self.url} answered HTTP {status} to {what} after "
                        f"{attempt + 1} attempt{'s' if attempt else ''}: {excerpt}",
                        status,
                        excerpt,
                    )
                    delay = self._retry_after(headers) or delay
                else:
                    own = reject(status, excerpt) if reject else None
                    if own is not None:
                        raise own
                    raise errors.status(
                        f"{self.url}{path} answered HTTP {status} to {what}: {excerpt}"
                        f"{self.hints.get(status, '')}",
                        status,
                        excerpt,
                    )
            if attempt < self.retries and abort.wait(delay):
                raise Aborted
        assert last is not None
        raise last
