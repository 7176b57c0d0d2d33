# One Tapete process (compose.yaml runs several behind Caddy).
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY tapete ./tapete
RUN pip install --no-cache-dir '.[postgres]'
EXPOSE 8000
CMD ["tapete", "serve", "--host", "0.0.0.0", "--port", "8000"]
