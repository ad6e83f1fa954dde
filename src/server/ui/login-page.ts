/**
 * The login form: the only thing /ui shows without credentials. Inline
 * styles are not allowed by the page's Content-Security-Policy, so it is
 * plain HTML; it posts the token once, and the server answers with a
 * session cookie.
 */
export function loginPage(message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>watchmark: log in</title><meta name="viewport" content="width=device-width"></head>
<body>
<h1>watchmark</h1>
<p data-testid="login-message">${escapeHtml(message)}</p>
<form method="post" action="/ui/login">
<label>API token <input type="password" name="token" autocomplete="off" autofocus></label>
<button type="submit">Open the live view</button>
</form>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
