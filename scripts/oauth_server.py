"""Serves a real OAuth2 authorization server (django-oauth-toolkit) on a free loopback port for
Convoy's integration tests, with a protected JSON endpoint.

Prints "LISTENING <host> <port>" once ready; exits when its parent process goes away. The
database is a fresh SQLite file in a temporary directory, migrated at start, with one user
(ada / lovelace) and one application per grant:

  convoy-password  confidential, password grant          secret password-secret
  convoy-service   confidential, client credentials      secret service-secret
  convoy-browser   public, authorization code + PKCE     redirect http://127.0.0.1/callback
  convoy-device    public, device authorization grant

Endpoints: RFC 8414 metadata at /.well-known/oauth-authorization-server, the toolkit's views at
/o/... (authorize, token, revoke_token, device-authorization, device), /accounts/login/,
GET /api/me and GET /v2/places (need a bearer token), GET /test/log (every request so far, "METHOD /path") and
POST /test/expire (token=…: that access token expires now).
"""
import os
import sys
import tempfile
import threading
import time

from werkzeug.serving import WSGIRequestHandler, make_server

HOST = sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1"
if not HOST.startswith("127."):
    sys.exit("refusing to listen on a non-loopback address: " + HOST)

requests_seen = []
application = None


def app(environ, start_response):
    requests_seen.append(environ["REQUEST_METHOD"] + " " + environ.get("PATH_INFO", ""))
    return application(environ, start_response)


WSGIRequestHandler.protocol_version = "HTTP/1.1"
server = make_server(HOST, 0, app, threaded=True)
BASE = "http://%s:%d" % (HOST, server.server_port)

import django  # noqa: E402
from django.conf import settings  # noqa: E402

LOGIN_PAGE = (
    "<html><body><form method='post'>{% csrf_token %}{{ form.as_p }}"
    "<input type='hidden' name='next' value='{{ next }}'><button>Log in</button></form></body></html>"
)
settings.configure(
    SECRET_KEY="convoy-integration-tests-only",
    DEBUG=os.environ.get("CONVOY_OAUTH_DEBUG") == "1",
    ALLOWED_HOSTS=[HOST],
    ROOT_URLCONF=__name__,
    USE_TZ=True,
    INSTALLED_APPS=[
        "django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
        "oauth2_provider",
    ],
    MIDDLEWARE=[
        "django.contrib.sessions.middleware.SessionMiddleware",
        "django.middleware.csrf.CsrfViewMiddleware",
        "django.contrib.auth.middleware.AuthenticationMiddleware",
    ],
    DATABASES={"default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.path.join(tempfile.mkdtemp(prefix="convoy-oauth-"), "db.sqlite3"),
    }},
    TEMPLATES=[{
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "OPTIONS": {
            "context_processors": ["django.template.context_processors.request"],
            "loaders": [
                ("django.template.loaders.locmem.Loader", {"registration/login.html": LOGIN_PAGE}),
                "django.template.loaders.app_directories.Loader",
            ],
        },
    }],
    LOGIN_URL="/accounts/login/",
    OAUTH2_PROVIDER={
        "ACCESS_TOKEN_EXPIRE_SECONDS": 3600,
        "ROTATE_REFRESH_TOKEN": True,
        "PKCE_REQUIRED": True,
        "DEVICE_FLOW_INTERVAL": 1,
        "OAUTH_DEVICE_VERIFICATION_URI": BASE + "/o/device/",
    },
)
django.setup()

from django.contrib.auth import views as auth_views  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.http import JsonResponse  # noqa: E402
from django.urls import include, path  # noqa: E402
from oauth2_provider.oauth2_backends import get_oauthlib_core  # noqa: E402
from oauth2_provider.models import AccessToken, Application  # noqa: E402
from django.utils import timezone  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402
from datetime import timedelta  # noqa: E402
from oauth2_provider.urls import metadata_urlpatterns  # noqa: E402


def bearer_owner(request):
    """The token's user ("" for a client's own token), or None for a missing or bad token."""
    valid, oauth_request = get_oauthlib_core().verify_request(request, scopes=[])
    if not valid:
        return None
    return oauth_request.user.username if oauth_request.user else ""


def invalid_token():
    # The toolkit's own decorator answers 403; a resource server following RFC 6750 §3.1 says
    # 401 with invalid_token, which is what clients renew on.
    response = JsonResponse({"error": "invalid_token"}, status=401)
    response["WWW-Authenticate"] = 'Bearer error="invalid_token"'
    return response


def me(request):
    owner = bearer_owner(request)
    if owner is None:
        return invalid_token()
    return JsonResponse({"user": owner, "places": ["Harbour", "Bridge"]})


def places(request):
    if bearer_owner(request) is None:
        return invalid_token()
    return JsonResponse(
        [{"id": 1, "name": "Harbour Promenade", "city": "Hamburg"},
         {"id": 2, "name": "Old Bridge", "city": "Prague"}], safe=False)


def log(request):
    return JsonResponse({"requests": requests_seen})


@csrf_exempt
def expire(request):
    # Ends one access token's life at the server, as time would: the next call is answered 401.
    expired = AccessToken.objects.filter(token=request.POST.get("token", "")).update(
        expires=timezone.now() - timedelta(seconds=1))
    return JsonResponse({"expired": expired})


urlpatterns = metadata_urlpatterns + [
    path("o/", include("oauth2_provider.urls", namespace="oauth2_provider")),
    path("accounts/login/", auth_views.LoginView.as_view()),
    path("api/me", me),
    path("v2/places", places),
    path("test/log", log),
    path("test/expire", expire),
]

call_command("migrate", verbosity=0)
user = User.objects.create_user("ada", password="lovelace")
for client_id, client_type, grant, secret, redirect in [
    ("convoy-password", "confidential", "password", "password-secret", ""),
    ("convoy-service", "confidential", "client-credentials", "service-secret", ""),
    ("convoy-browser", "public", "authorization-code", "", "http://127.0.0.1/callback"),
    ("convoy-device", "public", "urn:ietf:params:oauth:grant-type:device_code", "", ""),
]:
    Application.objects.create(
        name=client_id, client_id=client_id, client_secret=secret, client_type=client_type,
        authorization_grant_type=grant, redirect_uris=redirect, user=user,
        algorithm="",
    )
application = WSGIHandler()


def watch_parent(parent):
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True).start()
print("LISTENING", HOST, server.server_port, flush=True)
server.serve_forever()
