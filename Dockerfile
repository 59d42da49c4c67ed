# syntax=docker/dockerfile:1
# Parley: one image for the API replicas (API, socket.io and the built PWA in one Node process),
# the standalone PeerJS signalling server and the one-shot secrets initialiser of docker-compose.yml.

ARG NODE_IMAGE=node:20-slim

# Dependencies first, so a source change does not reinstall them.
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
COPY contract/package.json contract/
COPY api/package.json api/
COPY peer-server/package.json peer-server/
COPY pwa/package.json pwa/
RUN npm ci --no-audit --no-fund

# Build the PWA and the server bundle, then drop what only the build needed.
FROM deps AS build
COPY . .
RUN npm run build -w @parley/pwa \
 && node scripts/build-server.mjs \
 && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    SKIP_PWA_BUILD=true
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/contract ./contract
COPY --from=build /app/api ./api
COPY --from=build /app/peer-server ./peer-server
COPY --from=build /app/pwa/package.json ./pwa/package.json
COPY --from=build /app/pwa/dist ./pwa/dist
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/deploy ./deploy
# DATA_DIR holds generated secrets (and PGlite when no DATABASE_URL is given); owned by the
# unprivileged `node` user of the base image, which runs everything below.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=40s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# No npm in between, so SIGTERM reaches the server and it shuts down gracefully.
CMD ["node", "--v8-pool-size=1", "--heap-growing-percent=30", "scripts/start.mjs"]
