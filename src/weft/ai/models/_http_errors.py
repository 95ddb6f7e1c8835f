"""Turn a provider's HTTP failure into a :class:`ChatModelError` whose message says what to fix.

The first sentence of each message is n8n's wording for the same failure (``STATUS_CODE_MESSAGES`` of
``NodeApiError`` and ``openAiFailedAttemptHandler``), so errors read the same in both engines.
"""

from __future__ import annotations

from dataclasses import dataclass

from weft.ai.errors import (
    ChatModelAuthError,
    ChatModelBadRequestError,
    ChatModelConnectionError,
    ChatModelError,
    ChatModelQuotaError,
    ChatModelRateLimitError,
    ChatModelServerError,
    ChatModelTimeoutError,
)


@dataclass(frozen=True, kw_only=True)
class Endpoint:
    """Who was called, for error messages: provider name, credential type and base URL."""

    provider: str
    credential_type: str
    base_url: str


def status_error(endpoint: Endpoint, status: int, detail: str, code: str | None = None) -> ChatModelError:
    """The error for an HTTP error answer ``status`` whose body said ``detail`` (and error ``code``)."""
    p, cred = endpoint.provider, endpoint.credential_type
    said = f"{p} answered HTTP {status}: {detail}" if detail else f"{p} answered HTTP {status}"

    def make(cls: type[ChatModelError], message: str) -> ChatModelError:
        return cls(message, provider=p, http_code=status, description=said)

    if status in (401, 403):
        verb = "Authorization failed" if status == 401 else "Forbidden"
        return make(
            ChatModelAuthError,
            f"{verb} - please check your credentials. {p} rejected the API key of the {cred!r} credential; "
            f"correct the API key (or the credential's Base URL, now {endpoint.base_url!r}).",
        )
    if status == 429 and code == "insufficient_quota":
        return make(
            ChatModelQuotaError,
            f"Insufficient quota detected. The {p} account behind the {cred!r} credential has no quota left; "
            "add credit to the account or use another API key.",
        )
    if status == 429:
        return make(
            ChatModelRateLimitError,
            f"{p}: Rate limit reached. Wait and run again, raise 'Max Retries' in the model node's options, "
            "or send fewer requests at once.",
        )
    if status >= 500:
        return make(
            ChatModelServerError,
            f"The service was not able to process your request ({said}). Try again later, or turn on the "
            "node's 'Retry On Fail' setting.",
        )
    if "not a chat model" in detail:
        return make(
            ChatModelBadRequestError,
            'This model requires the Responses API. Enable "Use Responses API" in the OpenAI Chat Model node '
            "options to use this model.",
        )
    hint = f"Check the model name and the options of the model node, and that {endpoint.base_url!r} serves it."
    if status == 404:
        # n8n's message exactly; what the server said, and the fix, go to the description (recorded: case a024)
        return ChatModelBadRequestError(
            "The resource you are requesting could not be found",
            provider=p,
            http_code=status,
            description=f"{said}. {hint}",
        )
    what = "Bad request"
    return make(
        ChatModelBadRequestError,
        f"{what} - please check your parameters ({said}). Check the model name and the options of the "
        f"model node, and that {endpoint.base_url!r} serves that model.",
    )


def timeout_error(endpoint: Endpoint, timeout_s: float | None) -> ChatModelTimeoutError:
    within = f"within {timeout_s:g} seconds" if timeout_s else "in time"
    return ChatModelTimeoutError(
        f"{endpoint.provider} did not answer {within} (request to {endpoint.base_url!r} timed out). Raise the "
        "'Timeout' option of the model node, or check that the server is not overloaded.",
        provider=endpoint.provider,
    )


def connection_error(endpoint: Endpoint, reason: str) -> ChatModelConnectionError:
    return ChatModelConnectionError(
        f"Could not connect to {endpoint.provider} at {endpoint.base_url!r} ({reason}). Check the Base URL of "
        f"the {endpoint.credential_type!r} credential and that the server is running and reachable.",
        provider=endpoint.provider,
        description=reason,
    )
