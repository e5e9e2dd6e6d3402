/** The public API document's introduction (Markdown, shown at the top of /docs/api). */
export const PUBLIC_API_INTRO = `
The public API lets a studio's other software — its website, an automation tool, accounting, access
control — read the timetable and the price list, book and cancel classes, manage clients and their
contracts and orders.

## Authentication

Every call sends a studio **API key** in the \`x-api-key\` header. Staff with the Settings right create
keys in the back office (**Integrations**): a key is shown once, when it is created or rotated, and is
stored only as a hash. A key is either **read** (only \`GET\` calls and the reading \`POST\`s: schedule,
ping, graph) or **read and write**. A revoked or rotated key stops working at once.

## Rate limits

Each key has its own budget of requests per minute (120 unless the studio set another). Every answer
carries \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\` and \`RateLimit-Policy\`; over the
budget the answer is **429** with \`Retry-After\` (seconds).

## Errors

Every error answers one envelope: \`{ "error": { "code", "key", "message", "fields"? } }\`. \`key\` is
stable (\`apiKey.invalid\`, \`resource.notFound\`, …); on **400** \`fields\` lists the messages of each
invalid field. 401: missing, wrong or revoked key. 403: a read key writing. 404: an unknown id or one
of another studio.

## Webhooks

Studios subscribe URLs to events in the back office. Deliveries are \`POST\`s of
\`{ "type", "timestamp", "data" }\` signed with the [Standard Webhooks](https://www.standardwebhooks.com)
scheme: headers \`webhook-id\` (the event id: the same for a retry or a replay), \`webhook-timestamp\`
(Unix seconds) and \`webhook-signature\` (\`v1,<base64 HMAC-SHA256 of "id.timestamp.body">\`, one per live
secret, space-separated, while a rotated secret is still valid for 24 hours). Verify with any Standard
Webhooks library and the endpoint's \`whsec_…\` secret. Answer 2xx within 10 seconds; anything else is
retried with exponential backoff (11 attempts over about 8 hours), and an endpoint failing 5
deliveries in a row is switched off and the studio is told by e-mail.

Events: \`client.created\`, \`client.updated\`, \`visit.booked\`, \`visit.cancelled\`, \`visit.attended\`,
\`order.paid\`, \`order.refunded\`, \`contract.signed\`, \`contract.suspended\`, \`contract.ended\`,
\`pass.sold\`, \`appointment.booked\`, \`appointment.changed\` (and \`ping\` from the back office's test).
`.trim();
