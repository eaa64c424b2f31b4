# The server and its loader in one image. Build: docker build -t sparql-jsonapi .
# Run the bundled sample in the embedded store: docker run -p 3000:3000 sparql-jsonapi
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# npm ci runs the "prepare" script, which compiles src/ to dist/ with tsc.
RUN npm ci --no-audit --no-fund && npm prune --omit=dev

FROM node:20-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY mappings ./mappings
COPY data ./data
# The image's own unprivileged user; the app only reads its files.
USER node
EXPOSE 3000
CMD ["node", "dist/cli/bin.js", "serve", "--mapping", "mappings/sample.yaml", "--data", "data/sample.ttl", "--port", "3000", "--host", "0.0.0.0"]
