/**
 * The kinds of secret masked at ingest (secrets.ts masks them), declared as
 * data so docs/security.md can list them and the tests can walk them. Each
 * form is written as our own code; where gitleaks' default rules
 * (config/gitleaks.toml) have one, SecretKind.gitleaks names it.
 */
import {
  ANY_VALUE,
  ASSIGN,
  basicCredentials,
  binaryBase64,
  digitAndLetter,
  generatedKeyId,
  keyed,
  type MatchContext,
  notMasked,
  placeholder,
  type SecretKind,
  token,
} from "./secret-match.js";
import { SERVICE_KINDS } from "./secret-services.js";

export type { MatchContext, SecretKind } from "./secret-match.js";
export { entropy } from "./secret-match.js";

/** A password's value, unless a prose word after `password:` (`passwd: password updated successfully`), code, or the next setting. */
function passwordValue(secret: string, m: MatchContext): boolean {
  // no letter or digit: the closing quote of a string read as an opening one (`password:"}`)
  if (!notMasked(secret) || placeholder(secret) || !/[A-Za-z0-9]/.test(secret)) return false;
  const prose = !m.whole.includes("=") && /^[a-z]+$/.test(secret) && /^ [a-z]/.test(m.input.slice(m.index + m.whole.length));
  // `password= dbname=runs`: an empty password, then the next setting
  const nextSetting = /=\s+[^"'\s]*$/.test(m.whole) && /^[A-Za-z_]+=/.test(secret);
  // `password = self.fields.get("password")`, `password=make_password(raw)`: code, not a value
  const bare = m.whole.endsWith(secret) && !/["']/.test(m.whole.charAt(m.whole.length - secret.length - 1));
  return !prose && !nextSetting && !(bare && codeLike(secret));
}

/** An unquoted value that reads as code: a call (`make_password(raw`) or an attribute (`self.cleaned_data`). */
function codeLike(value: string): boolean {
  return value.includes("(") || /^[a-z_]\w*(?:\.[A-Za-z_]\w*)+$/.test(value);
}

/** The value of a `key=value` or `"key": "value"` whose key names a secret (keyedKind), unless a placeholder or (unquoted) code. */
function keyedValue(secret: string, m: MatchContext): boolean {
  if (m.groups.secret3 !== undefined && codeLike(secret)) return false;
  return notMasked(secret) && !placeholder(secret) && secret.trim() !== "";
}

/** Every kind masked, in the order they are tried (the first that matches a piece of text masks it). */
export const SECRET_KINDS: readonly SecretKind[] = [
  {
    kind: "private_key",
    needs: ["-----BEGIN"],
    describes:
      "a PEM or PGP private key block, `-----BEGIN ... PRIVATE KEY-----` (or `PRIVATE KEY BLOCK`) to its END line (or the end of the text), within 16 KiB",
    gitleaks: "private-key",
    pattern: /-----BEGIN [A-Z0-9 _-]{0,40}PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,16384}?(?:-----END [A-Z0-9 _-]{0,40}PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  {
    kind: "private_key",
    describes:
      "a line of a private key's base64 body alone in a line or a string: 64 or 70 characters that decode to bytes no text is made of; in a record (or text) that holds a `BEGIN`/`END ... PRIVATE KEY` line, any such line of 16 or more characters in both cases (and a digit, `+` or `/`, or 40 or more)",
    gitleaks: "private-key",
    pattern: /(?<=^|[\r\n"'`])[ \t]*(?<secret>[A-Za-z0-9+/]{16,100}={0,2})[ \t]*(?=$|[\r\n"'`])/g,
    accept: (s, m) =>
      !/^[0-9a-fA-F]+$/.test(s) &&
      /[A-Z]/.test(s) &&
      /[a-z]/.test(s) &&
      (m.keyBlock ? /[0-9+/]/.test(s) || s.length >= 40 : (s.length === 64 || s.length === 70) && /\d/.test(s) && binaryBase64(s)),
  },
  {
    kind: "slack_webhook",
    needs: ["hooks.slack.com"],
    describes: "the path of a Slack webhook URL, `hooks.slack.com/services/...` (also `workflows/`, `triggers/`)",
    gitleaks: "slack-webhook-url",
    pattern: /hooks\.slack\.com\/(?:services|workflows|triggers)\/(?<secret>[A-Za-z0-9+/]{20,})/g,
  },
  {
    kind: "azure_sas_signature",
    needs: ["sig="],
    describes: "the signature of an Azure shared access signature URL, `sig=...` in a query string",
    pattern: /[?&]sig=(?<secret>[A-Za-z0-9%+/=]{16,})/g,
  },
  {
    kind: "azure_storage_key",
    needs: ["Key="],
    describes: "the key of an Azure connection string, `AccountKey=...` or `SharedAccessKey=...`",
    pattern: /\b(?:Account|SharedAccess)Key=(?<secret>[A-Za-z0-9+/]{20,}={0,2})/g,
  },
  {
    kind: "bearer_token",
    needs: ["earer", "EARER"],
    describes: "the token after `Bearer `, `bearer ` or `BEARER `, 16 characters or more",
    pattern: /\b(?:[Bb]earer|BEARER)[ \t]+(?<secret>[A-Za-z0-9._~+/-]{16,}=*)/g,
  },
  {
    kind: "authorization",
    needs: ["uthoriz", "UTHORIZ", "asic", "ASIC"],
    describes:
      "the credentials of an `Authorization:` (or `Proxy-Authorization:`) header, after `Basic `, `Token ` or `Digest `; without a scheme word, 20 or more characters or a digit and a letter",
    gitleaks: "curl-auth-header",
    pattern: keyed(
      "(?:[Pp]roxy-)?(?:[Aa]uthorization|AUTHORIZATION)",
      String.raw`(?:(?<scheme>Basic|basic|BASIC|Token|token|Digest|digest)[ \t]+)?(?<secret>[A-Za-z0-9._~+/=-]{8,})`,
    ),
    accept: (s, m) => notMasked(s) && (m.groups.scheme !== undefined || s.length >= 20 || digitAndLetter(s)),
  },
  {
    kind: "authorization",
    needs: ["uthoriz", "UTHORIZ", "asic", "ASIC"],
    describes: "the credentials after `Basic ` anywhere: base64 that decodes to `user:password`",
    gitleaks: "curl-auth-header",
    pattern: /\b(?:Basic|basic|BASIC)[ \t]+(?<secret>[A-Za-z0-9+/]{4,1024}={0,2})(?![A-Za-z0-9+/=])/g,
    accept: basicCredentials,
  },
  {
    kind: "jwt",
    needs: ["eyJ"],
    describes: "a JSON Web Token: `eyJ...` `.eyJ...` `.signature`",
    gitleaks: "jwt",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
  },
  {
    kind: "api_key",
    needs: ["sk-"],
    describes:
      "an OpenAI, Anthropic, OpenRouter or DeepSeek style key: `sk-proj-`, `sk-svcacct-`, `sk-admin-`, `sk-None-`, `sk-ant-` or `sk-or-v1-` and 20 or more characters, `sk-` and any key holding OpenAI's `T3BlbkFJ`, or `sk-` and 32 or more letters and digits (holding both)",
    gitleaks: "openai-api-key, anthropic-api-key, anthropic-admin-api-key",
    pattern: /\bsk-(?:(?:proj|svcacct|admin|None|ant|or-v1)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9_-]*T3BlbkFJ[A-Za-z0-9_-]{16,}|[A-Za-z0-9]{32,})/g,
    accept: digitAndLetter,
  },
  {
    kind: "stripe_key",
    needs: ["_live_", "_test_", "_prod_"],
    describes: "a Stripe secret or restricted key: `sk_live_`, `sk_test_`, `rk_live_`, `rk_test_` (or `_prod_`) and 10 or more letters and digits",
    gitleaks: "stripe-access-token",
    pattern: /\b(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{10,99}\b/g,
  },
  {
    kind: "stripe_webhook_secret",
    needs: ["whsec_"],
    describes: "a Stripe webhook signing secret: `whsec_` and 24 or more letters and digits",
    pattern: /\bwhsec_[A-Za-z0-9]{24,}/g,
  },
  {
    kind: "aws_access_key_id",
    needs: ["AKIA", "ASIA", "ABIA", "ACCA", "A3T"],
    describes:
      "an AWS access key id: `AKIA`, `ASIA`, `ABIA`, `ACCA` or `A3T?` and 16 characters of base32 (A-Z, 2-7), entropy over 3 bits a character, and not capitals alone that read as words (a third of them vowels, as in `ASIAPACIFICSOUTHEAST`)",
    gitleaks: "aws-access-token",
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b/g,
    accept: generatedKeyId,
  },
  {
    kind: "aws_secret_access_key",
    describes:
      "the value after `aws_secret_access_key`, `SecretAccessKey` and the like (any case, `=` or `:`, quoted or not; or a blank after `aws configure set`), 40 characters",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9])(?:[A-Za-z0-9]+_)?(?:aws_?)?secret_?access_?key${ASSIGN}(?<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])|\baws[ \t]+configure[ \t]+set[ \t]+(?:[\w-]+\.)?aws_secret_access_key[ \t]+["']?(?<secret2>[A-Za-z0-9/+=]{16,})`,
      "gi",
    ),
  },
  {
    kind: "aws_session_token",
    describes:
      "an AWS session token: the value after `aws_session_token`, `SessionToken` or `security_token` (or a blank after `aws configure set`), or a token starting `FwoGZXIvYXdz` or `IQoJb3JpZ2lu`",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9])(?:aws_?)?(?:session|security)_?token${ASSIGN}(?<secret>[A-Za-z0-9/+=]{16,})|\baws[ \t]+configure[ \t]+set[ \t]+(?:[\w-]+\.)?aws_session_token[ \t]+["']?(?<secret2>[A-Za-z0-9/+=]{16,})|\b(?:FwoGZXIvYXdz|IQoJb3JpZ2lu)[A-Za-z0-9/+=]{40,}`,
      "gi",
    ),
  },
  {
    kind: "github_token",
    needs: ["gh", "github_pat_"],
    describes: "a GitHub token: `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` or `github_pat_` and 20 or more characters",
    gitleaks: "github-pat, github-oauth, github-app-token, github-refresh-token, github-fine-grained-pat",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})/g,
  },
  {
    kind: "gitlab_token",
    needs: ["gl", "GR1348941"],
    describes:
      "a GitLab token: `glpat-`, `gldt-`, `glft-`, `glrt-`, `glsoat-`, `glptt-`, `glcbt-` and 20 or more characters, or a runner registration token `GR1348941...`",
    gitleaks:
      "gitlab-pat, gitlab-pat-routable, gitlab-deploy-token, gitlab-feed-token, gitlab-runner-authentication-token, gitlab-scim-token, gitlab-ptt, gitlab-cicd-job-token, gitlab-rrt",
    pattern: /\b(?:gl(?:pat|dt|ft|rt|soat|ptt)-[A-Za-z0-9_.-]{20,}|glcbt-[0-9a-zA-Z]{1,5}_[0-9a-zA-Z_-]{20,}|GR1348941[\w-]{20,})/g,
  },
  {
    kind: "npm_token",
    needs: ["npm_"],
    describes: "an npm access token: `npm_` and 36 letters and digits",
    gitleaks: "npm-access-token",
    pattern: /\bnpm_[A-Za-z0-9]{36}\b/g,
  },
  {
    kind: "slack_token",
    needs: ["xox", "xapp-"],
    describes:
      "a Slack token: `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-`, `xoxo-`, `xoxe-` (or `xoxe.xoxb-`) and 10 or more characters, or an app token `xapp-1-...`",
    gitleaks:
      "slack-bot-token, slack-user-token, slack-app-token, slack-legacy-bot-token, slack-legacy-token, slack-legacy-workspace-token, slack-config-access-token, slack-config-refresh-token",
    pattern: /\b(?:(?:xoxe\.)?xox[abprsoe]-[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9]+-\d+-[A-Za-z0-9]+)/g,
  },
  {
    kind: "google_api_key",
    needs: ["AIza"],
    describes: "a Google API key: `AIza` and 35 characters",
    gitleaks: "gcp-api-key",
    pattern: /\bAIza[0-9A-Za-z_-]{35}/g,
  },
  {
    kind: "google_oauth_secret",
    needs: ["GOCSPX-"],
    describes: "a Google OAuth client secret: `GOCSPX-` and 28 characters",
    pattern: /\bGOCSPX-[A-Za-z0-9_-]{24,}/g,
  },
  {
    kind: "google_oauth_token",
    needs: ["ya29."],
    describes: "a Google OAuth access token: `ya29.` and 20 or more characters",
    pattern: /\bya29\.[A-Za-z0-9_-]{20,}/g,
  },
  {
    kind: "sendgrid_key",
    needs: ["SG."],
    describes: "a SendGrid API key: `SG.`, 16 to 32 characters, `.`, 16 to 64 characters",
    gitleaks: "sendgrid-api-token",
    pattern: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}/g,
  },
  {
    kind: "digitalocean_token",
    needs: ["_v1_"],
    describes: "a DigitalOcean token: `dop_v1_`, `doo_v1_` or `dor_v1_` and 64 hex digits",
    gitleaks: "digitalocean-pat, digitalocean-access-token, digitalocean-refresh-token",
    pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g,
  },
  {
    kind: "huggingface_token",
    describes: "a Hugging Face token: `hf_` and 30 or more letters or digits, or an organization token `api_org_` and 34 letters",
    gitleaks: "huggingface-access-token, huggingface-organization-api-token",
    pattern: token("hf_|api_org_", "[A-Za-z0-9]{30,}"),
  },
  ...SERVICE_KINDS,
  {
    kind: "gcp_private_key_id",
    needs: ["private_key_id"],
    describes: "the `private_key_id` of a Google Cloud service-account key: 40 hex digits",
    pattern: keyed("private_key_id", String.raw`(?<secret>[a-f0-9]{40})\b`),
  },
  {
    kind: "credential",
    describes:
      "the value after `x-api-key`, `api_key`, `apikey`, `api_token`, `access_token`, `auth_token`, `client_secret`, `secret_key` (any case, with a prefix such as `OPENAI_API_KEY`; `=` or `:`), 8 or more characters holding a digit and a letter",
    gitleaks: "generic-api-key, curl-auth-header",
    pattern: keyed(
      String.raw`(?:[A-Za-z0-9]+[_-])*(?:x-)?(?:api[_-]?(?:key|token|secret)|access[_-]?token|auth[_-]?token|refresh[_-]?token|client[_-]?secret|secret[_-]?key)`,
      String.raw`(?<secret>[A-Za-z0-9._~+/=-]{8,})`,
      "gi",
    ),
    accept: (s) => notMasked(s) && digitAndLetter(s),
  },
  {
    kind: "password",
    describes:
      "the value after `password`, `passwd` (any case, also `DB_PASSWORD`, `PGPASSWORD`, not after `/` or `.` as in `/etc/passwd:`; `=` or `:`, quoted or not; not a prose word after `:`), after a flag `--password`, `--db-password` (a blank or `=`), after `mysql ... -p` (attached) and `sshpass -p`; not a placeholder (`None`, `***`, `$VAR`, `<password>`)",
    gitleaks: "generic-api-key",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9/._\\])[A-Za-z0-9_]*pass(?:word|wd)${ASSIGN}${ANY_VALUE}` +
        String.raw`|(?<![\w-])--(?:[a-z0-9]+-)*pass(?:word|wd)(?:=|[ \t]+)(?:"(?<secret2>[^"\n]+)"|'(?<secret3>[^'\n]+)'|(?<secret4>[^\s"'\x60;|&]+))` +
        String.raw`|\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]*?[ \t]-p(?<secret5>[^\s"'\x60;|&]+)|\bsshpass[ \t]+-p[ \t]*(?<secret6>[^\s"'\x60;|&]+)`,
      "gi",
    ),
    accept: passwordValue,
  },
  {
    kind: "keyed",
    describes:
      'in text that is no valid JSON (a rejected line, a JSON text inside a string): the value of `"KEY": "value"`, `\'KEY\': \'value\'`, `KEY=value` or `KEY="value"` whose key names a secret as a JSON key does (below), masked as that key\'s kind (`password`, `credential`, ...)',
    gitleaks: "generic-api-key",
    pattern:
      /(?<![A-Za-z0-9_.-])(?<q>["']?)(?<key>[A-Za-z][A-Za-z0-9_.-]{2,63}(?<=pass(?:word|wd)|key|token|secret|authorization|key[_.-]?id))\k<q>(?:[ \t]*(?:(?<=["'][ \t]*):|=)[ \t]*(?:"(?<secret>(?:[^"\\\n]|\\.){1,1024})"|'(?<secret2>[^'\n]{1,1024})')|=(?<secret3>[^\s"'&;,)}\]\\]+))/gi,
    accept: keyedValue,
    kindOf: (m) => keyedKind(m.groups.key ?? ""),
  },
  {
    kind: "url_password",
    needs: ["://"],
    describes: "the password of a URL with credentials, `scheme://user:PASSWORD@host` (the user may be empty, the password may hold `/`)",
    gitleaks: "curl-auth-user, sidekiq-sensitive-url",
    pattern: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@"'\\]*:(?<secret>[^\s@"'\\]+)(?=@[A-Za-z0-9[])/gi,
    // `host:8080/path@v1` is a port and a path, not a password
    accept: (s) => notMasked(s) && !/^\d+(?:\/|$)/.test(s),
  },
  {
    kind: "url_password",
    needs: ["curl"],
    describes: "the password of `curl -u user:PASSWORD` (or `--user`)",
    gitleaks: "curl-auth-user",
    pattern: /\bcurl\b[^\n|;&]*?[ \t](?:-u|--user)(?:=|[ \t]+)["']?[^\s:"']+:(?<secret>[^\s"']{3,})/g,
    accept: (s) => notMasked(s) && !placeholder(s),
  },
];

/**
 * The kind of secret a JSON key names, whose whole string value is then masked
 * (a password under `"password"` has no form of its own). Compared without
 * case, `-` and `_`: `x-api-key`, `X_API_KEY` and `xApiKey` are one name. Null
 * for every other key.
 */
export function keyedKind(key: string): string | null {
  const k = key.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (k.length < 6) return null;
  if (k.endsWith("password") || k.endsWith("passwd")) return "password";
  if (k.endsWith("secretaccesskey")) return "aws_secret_access_key";
  if (k.endsWith("sessiontoken") || k.endsWith("securitytoken")) return "aws_session_token";
  if (k === "privatekeyid") return "gcp_private_key_id";
  if (k === "privatekey") return "private_key";
  if (k === "authorization" || k === "proxyauthorization") return "authorization";
  if (k.endsWith("apikey") || k.endsWith("secret") || CREDENTIAL_KEYS.has(k) || CREDENTIAL_TOKEN.test(k)) return "credential";
  return null;
}

/** Normalised key names (keyedKind) whose value is a `credential`, beside those ending `apikey`, `secret` or a token's name. */
const CREDENTIAL_KEYS = new Set(["xapikey", "secretkey", "privatetoken"]);

/** Normalised key names of a token (keyedKind): `access_token`, `GITHUB_TOKEN`, `bot_token`, ... (not `next_token`, `max_tokens`). */
const CREDENTIAL_TOKEN = /(?:access|auth|refresh|api|bot|bearer|id|github|gh|hf|huggingface|slack|npm|pypi|vault|personalaccess|secret|oauth)token$/;
