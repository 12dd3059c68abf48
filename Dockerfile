# notescrub HTTP service: docs/serve.md
#   docker build -t notescrub .
#   docker run --rm -p 127.0.0.1:8000:8000 -e NOTESCRUB_TOKEN="$(cat token)" \
#       -v "$PWD/site.key:/run/secrets/notescrub.key:ro" -e NOTESCRUB_KEY_FILE=/run/secrets/notescrub.key notescrub
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    NUMBA_CACHE_DIR=/tmp/numba-cache

WORKDIR /opt/notescrub
COPY pyproject.toml README.md ./
COPY src ./src
RUN pip install ".[serve]" \
 && useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin notescrub

USER 10001:10001
EXPOSE 8000

HEALTHCHECK --interval=30s --timeout=5s --start-period=60s \
  CMD ["python", "-c", "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/ready', timeout=4).status != 200)"]

# Inside the container the service binds every interface, so it refuses to start without a
# bearer token: pass NOTESCRUB_TOKEN (or mount a file and add --token-file FILE).
ENTRYPOINT ["notescrub", "serve", "--host", "0.0.0.0", "--port", "8000"]
CMD []
