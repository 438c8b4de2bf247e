# syntax=docker/dockerfile:1
# Capture Inbox as a container image. Not built or published by this project's CI (no image registry
# is reachable from it); test/unit/deploy-files.test.ts checks this file's conventions instead.
#   docker build -t capture-inbox .
#   docker run -p 127.0.0.1:8080:8080 -v inbox-data:/app/data capture-inbox
ARG NODE_VERSION=22

# Build: the full install compiles better-sqlite3 and, through `prepare`, builds dist/; then the
# development dependencies go.
FROM node:${NODE_VERSION}-bookworm-slim AS build
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
# Voice capture: ffmpeg decodes uploads and pocketsphinx transcribes them offline. Build with
# --build-arg VOICE=0 for a smaller image without them (voice then answers 503 unless
# TRANSCRIBE_ENGINE=openai is set).
ARG VOICE=1
RUN if [ "$VOICE" = "1" ]; then \
    apt-get update \
    && apt-get install -y --no-install-recommends ffmpeg pocketsphinx pocketsphinx-en-us \
    && rm -rf /var/lib/apt/lists/*; \
  fi
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080
COPY --from=build --chown=node:node /app /app
# The SQLite database and the generated SECRET_KEY file live in data/: keep it on a volume.
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
USER node
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node itself, not npm start: the container's SIGTERM must reach the server, which drains requests.
# dist/start.js turns on the compile cache (in dist/.cache, written by the node user) and loads dist/server.js.
CMD ["node", "dist/start.js"]
