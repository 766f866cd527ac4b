/**
 * Tokens of services that name themselves by a fixed prefix (`gsk_`, `hvs.`,
 * `shpat_`, ...), most from gitleaks' default rules (config/gitleaks.toml,
 * named in each kind's `gitleaks`), a few of AI services it has none for
 * (Groq, xAI, Replicate, LangSmith, Tavily). Tried after the kinds of
 * secret-kinds.ts that come before them in SECRET_KINDS.
 */
import { ASSIGN, digitAndLetter, entropy, type SecretKind, token } from "./secret-match.js";

/** The part after a prefix holds a digit and a letter (a generated token, not a word). */
const generated = (prefix: number) => (s: string) => digitAndLetter(s.slice(prefix));

/** A value after a key whose name holds `word` (any case): `HEROKU_API_KEY=`, `"cohere_key": "`. */
function keyNaming(word: string, value: string): string {
  return String.raw`(?<![A-Za-z0-9])[\w.-]*(?:${word})[\w.-]*${ASSIGN}(?<secret>${value})(?![A-Za-z0-9_-])`;
}

const UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

/** The service kinds, in the order they are tried. */
export const SERVICE_KINDS: readonly SecretKind[] = [
  { kind: "groq_key", describes: "a Groq API key: `gsk_` and 40 or more letters and digits", pattern: token("gsk_", "[A-Za-z0-9]{40,}"), accept: generated(4) },
  { kind: "xai_key", describes: "an xAI API key: `xai-` and 60 or more letters and digits", pattern: token("xai-", "[A-Za-z0-9]{60,}"), accept: generated(4) },
  {
    kind: "perplexity_key",
    describes: "a Perplexity API key: `pplx-` and 40 or more letters and digits",
    gitleaks: "perplexity-api-key",
    pattern: token("pplx-", "[A-Za-z0-9]{40,}"),
    accept: generated(5),
  },
  {
    kind: "replicate_token",
    describes: "a Replicate API token: `r8_` and 30 or more letters and digits",
    pattern: token("r8_", "[A-Za-z0-9]{30,}"),
    accept: generated(3),
  },
  {
    kind: "cohere_key",
    describes: "a Cohere API key: 40 letters and digits after a key naming `cohere` or `CO_API_KEY`",
    gitleaks: "cohere-api-token",
    pattern: new RegExp(keyNaming("cohere|co_api_key", "[A-Za-z0-9]{40}"), "gi"),
    accept: (s) => digitAndLetter(s),
  },
  {
    kind: "langsmith_key",
    describes: "a LangSmith API key: `lsv2_pt_` or `lsv2_sk_`, 32 hex digits, `_`, 10 hex digits",
    pattern: token("lsv2_(?:pt|sk)_", "[a-f0-9]{32}_[a-f0-9]{10}"),
  },
  {
    kind: "tavily_key",
    describes: "a Tavily API key: `tvly-` (or `tvly-dev-`) and 32 letters and digits",
    pattern: token("tvly-(?:dev-|prod-)?", "[A-Za-z0-9]{32}"),
    accept: generated(5),
  },
  {
    kind: "pypi_token",
    describes: "a PyPI upload token: `pypi-AgEIcHlwaS5vcmc` and 50 or more characters",
    gitleaks: "pypi-upload-token",
    pattern: token("pypi-AgEIcHlwaS5vcmc", "[A-Za-z0-9_-]{50,}"),
  },
  {
    kind: "vault_token",
    describes: "a HashiCorp Vault token: `hvs.`, `hvb.` or `hvr.` and 24 or more characters holding a digit and a letter",
    gitleaks: "vault-service-token, vault-batch-token",
    pattern: token(String.raw`hv[sbr]\.`, "[A-Za-z0-9_-]{24,}"),
    accept: generated(4),
  },
  {
    kind: "terraform_token",
    needs: [".atlasv1."],
    describes: "a Terraform Cloud token: 14 characters, `.atlasv1.`, 60 to 70 characters",
    gitleaks: "hashicorp-tf-api-token",
    pattern: /(?<![A-Za-z0-9])[a-zA-Z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])/g,
  },
  {
    kind: "databricks_token",
    describes: "a Databricks token: `dapi` and 32 hex digits (and `-N`)",
    gitleaks: "databricks-api-token",
    pattern: token("dapi", String.raw`[a-f0-9]{32}(?:-\d)?`),
    accept: generated(4),
  },
  {
    kind: "doppler_token",
    describes: "a Doppler token: `dp.pt.`, `dp.st.`, `dp.ct.`, `dp.sa.`, `dp.scim.` or `dp.audit.` and 40 or more letters and digits",
    gitleaks: "doppler-api-token",
    pattern: token(String.raw`dp\.(?:pt|st|ct|sa|scim|audit)\.`, "[A-Za-z0-9]{40,}"),
  },
  {
    kind: "shopify_token",
    describes: "a Shopify token or shared secret: `shpat_`, `shpca_`, `shppa_` or `shpss_` and 32 hex digits",
    gitleaks: "shopify-access-token, shopify-custom-access-token, shopify-private-app-access-token, shopify-shared-secret",
    pattern: token("shp(?:at|ca|pa|ss)_", "[a-fA-F0-9]{32}"),
  },
  {
    kind: "twilio_key",
    describes: "a Twilio API key: `SK` and 32 hex digits (holding a letter)",
    gitleaks: "twilio-api-key",
    pattern: token("SK", "[0-9a-fA-F]{32}"),
    accept: (s) => generated(2)(s) && entropy(s) > 3,
  },
  {
    kind: "mailgun_key",
    describes: "a Mailgun private API key: `key-` and 32 hex digits",
    gitleaks: "mailgun-private-api-token",
    pattern: token("key-", "[a-f0-9]{32}"),
    accept: generated(4),
  },
  {
    kind: "mailchimp_key",
    needs: ["-us"],
    describes: "a Mailchimp API key: 32 hex digits, `-us` and the data centre's number",
    gitleaks: "mailchimp-api-key",
    pattern: /(?<![A-Za-z0-9_-])[a-f0-9]{32}-us\d{1,2}(?![A-Za-z0-9_])/g,
    accept: (s) => digitAndLetter(s.slice(0, 32)),
  },
  {
    kind: "linear_key",
    describes: "a Linear API key: `lin_api_` (or `lin_oauth_`) and 40 or more letters and digits",
    gitleaks: "linear-api-key",
    pattern: token("lin_api_|lin_oauth_", "[A-Za-z0-9]{40,}"),
  },
  {
    kind: "atlassian_token",
    describes: "an Atlassian API token: `ATATT3` (or `ATCTT3`) and 150 or more characters",
    gitleaks: "atlassian-api-token",
    pattern: token("ATATT3|ATCTT3", "[A-Za-z0-9_=-]{150,}"),
  },
  {
    kind: "heroku_key",
    describes: "a Heroku API key: `HRKU-` and 58 or more characters, or a UUID after a key naming `heroku`",
    gitleaks: "heroku-api-key, heroku-api-key-v2",
    pattern: new RegExp(`${token("HRKU-", "[A-Za-z0-9_-]{58,}").source}|${keyNaming("heroku", UUID)}`, "gi"),
  },
  {
    kind: "flyio_token",
    describes: "a Fly.io token: `fo1_`, `fm1a_`, `fm1r_` or `fm2_` and 43 or more characters",
    gitleaks: "flyio-access-token",
    pattern: token("fo1_|fm1[ar]_|fm2_", "[A-Za-z0-9_+/-]{43,}={0,3}"),
  },
  {
    kind: "pulumi_token",
    describes: "a Pulumi access token: `pul-` and 40 hex digits",
    gitleaks: "pulumi-api-token",
    pattern: token("pul-", "[a-f0-9]{40}"),
    accept: generated(4),
  },
  {
    kind: "postman_key",
    describes: "a Postman API key: `PMAK-`, 24 hex digits, `-`, 34 hex digits",
    gitleaks: "postman-api-token",
    pattern: token("PMAK-", "[a-fA-F0-9]{24}-[a-fA-F0-9]{34}"),
  },
  {
    kind: "age_secret_key",
    describes: "an age secret key: `AGE-SECRET-KEY-1` and 58 characters of bech32",
    gitleaks: "age-secret-key",
    pattern: token("AGE-SECRET-KEY-1", "[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}"),
  },
  {
    kind: "onepassword_secret",
    describes: "a 1Password secret key `A3-XXXXXX-...` or service-account token `ops_eyJ...`",
    gitleaks: "1password-secret-key, 1password-service-account-token",
    pattern: token(
      "A3-|ops_eyJ",
      "(?:(?<=A3-)[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}|(?<=ops_eyJ)[A-Za-z0-9+/]{100,}={0,3})",
    ),
    accept: (s) => entropy(s) > 3,
  },
  {
    kind: "grafana_token",
    describes: "a Grafana token: `glc_` (cloud) or `glsa_` (service account) and 32 or more characters, or an API key `eyJrIjoi...`",
    gitleaks: "grafana-cloud-api-token, grafana-service-account-token, grafana-api-key",
    pattern: token("glc_|glsa_|eyJrIjoi", "[A-Za-z0-9+/_]{32,}={0,3}"),
    accept: (s) => digitAndLetter(s.slice(4)),
  },
  {
    kind: "sentry_token",
    describes: "a Sentry token: `sntryu_` and 64 hex digits, or `sntrys_eyJ...`",
    gitleaks: "sentry-user-token, sentry-org-token",
    pattern: token("sntryu_|sntrys_eyJ", "(?:(?<=u_)[a-f0-9]{64}|(?<=eyJ)[A-Za-z0-9+/=_]{50,})"),
  },
  {
    kind: "newrelic_key",
    describes: "a New Relic user API key `NRAK-` and 27 characters, or insert key `NRII-` and 32",
    gitleaks: "new-relic-user-api-key, new-relic-insert-key",
    pattern: token("NRAK-|NRII-", "(?:(?<=K-)[A-Z0-9]{27}|(?<=I-)[A-Za-z0-9-]{32})"),
  },
  {
    kind: "telegram_bot_token",
    needs: [":A"],
    describes: "a Telegram bot token: the bot's number, `:A`, 34 characters",
    gitleaks: "telegram-bot-api-token",
    pattern: /(?<![0-9])[0-9]{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/g,
    accept: (s) => digitAndLetter(s.slice(s.indexOf(":") + 2)),
  },
  {
    kind: "discord_token",
    describes:
      "a Discord bot token (`M`, `N` or `O`, 23 to 25 characters, `.`, 6, `.`, 27 to 38), a webhook's token, or 64 hex digits after a key naming `discord`",
    gitleaks: "discord-api-token",
    pattern: new RegExp(
      String.raw`(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}(?![A-Za-z0-9_-])|discord(?:app)?\.com\/api\/webhooks\/\d+\/(?<secret2>[A-Za-z0-9_-]{40,})|${keyNaming("discord", "[a-f0-9]{64}")}`,
      "gi",
    ),
    accept: (s) => digitAndLetter(s) && entropy(s) > 3,
  },
  {
    kind: "teams_webhook",
    needs: ["webhookb2/"],
    describes: "the path of a Microsoft Teams webhook URL, `webhook.office.com/webhookb2/...`",
    gitleaks: "microsoft-teams-webhook",
    pattern: /webhook\.office\.com\/webhookb2\/(?<secret>[A-Za-z0-9@/-]{60,})/g,
  },
  {
    kind: "notion_token",
    describes: "a Notion API token: `ntn_`, 11 digits, 35 letters and digits",
    gitleaks: "notion-api-token",
    pattern: token("ntn_", "[0-9]{11}[A-Za-z0-9]{35}"),
  },
  {
    kind: "prefect_key",
    describes: "a Prefect API key: `pnu_` and 36 letters and digits",
    gitleaks: "prefect-api-token",
    pattern: token("pnu_", "[A-Za-z0-9]{36}"),
  },
  {
    kind: "planetscale_token",
    describes: "a PlanetScale token or password: `pscale_tkn_`, `pscale_oauth_` or `pscale_pw_` and 32 to 64 characters",
    gitleaks: "planetscale-api-token, planetscale-oauth-token, planetscale-password",
    pattern: token("pscale_(?:tkn|oauth|pw)_", "[A-Za-z0-9_=.-]{32,64}"),
  },
  {
    kind: "dynatrace_token",
    describes: "a Dynatrace API token: `dt0c01.`, 24 characters, `.`, 64 characters",
    gitleaks: "dynatrace-api-token",
    pattern: token(String.raw`dt0c01\.`, String.raw`[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}`),
  },
  {
    kind: "artifactory_token",
    describes: "a JFrog Artifactory API key `AKCp` and 69 characters, or reference token `cmVmd` and 59",
    gitleaks: "artifactory-api-key, artifactory-reference-token",
    pattern: token("AKCp|cmVmd", "(?:(?<=AKCp)[A-Za-z0-9]{69}|(?<=cmVmd)[A-Za-z0-9]{59})"),
  },
  {
    kind: "rubygems_token",
    describes: "a RubyGems API token: `rubygems_` and 48 hex digits",
    gitleaks: "rubygems-api-token",
    pattern: token("rubygems_", "[a-f0-9]{48}"),
  },
  {
    kind: "sendinblue_key",
    describes: "a Brevo (Sendinblue) API key: `xkeysib-`, 64 hex digits, `-`, 16 characters",
    gitleaks: "sendinblue-api-token",
    pattern: token("xkeysib-", "[a-f0-9]{64}-[A-Za-z0-9]{16}"),
  },
  {
    kind: "square_token",
    describes: "a Square access token or secret: `sq0atp-` or `sq0csp-` and 22 or more characters, or `EAAA` and 60",
    gitleaks: "square-access-token",
    pattern: token("sq0atp-|sq0csp-|EAAA", "(?:(?<=-)[A-Za-z0-9_-]{22,}|(?<=EAAA)[A-Za-z0-9_-]{60})"),
    accept: generated(4),
  },
  {
    kind: "shippo_token",
    describes: "a Shippo API token: `shippo_live_` or `shippo_test_` and 40 hex digits",
    gitleaks: "shippo-api-token",
    pattern: token("shippo_(?:live|test)_", "[a-fA-F0-9]{40}"),
  },
  {
    kind: "duffel_token",
    describes: "a Duffel API token: `duffel_live_` or `duffel_test_` and 43 characters",
    gitleaks: "duffel-api-token",
    pattern: token("duffel_(?:live|test)_", "[A-Za-z0-9_=-]{43}"),
  },
  {
    kind: "easypost_key",
    describes: "an EasyPost API key: `EZAK` or `EZTK` and 54 letters and digits",
    gitleaks: "easypost-api-token, easypost-test-api-token",
    pattern: token("EZ[AT]K", "[A-Za-z0-9]{54}"),
  },
  {
    kind: "infracost_token",
    describes: "an Infracost API token: `ico-` and 32 letters and digits",
    gitleaks: "infracost-api-token",
    pattern: token("ico-", "[A-Za-z0-9]{32}"),
    accept: generated(4),
  },
  {
    kind: "frameio_token",
    describes: "a Frame.io API token: `fio-u-` and 64 characters",
    gitleaks: "frameio-api-token",
    pattern: token("fio-u-", "[A-Za-z0-9_=-]{64}"),
  },
  {
    kind: "readme_token",
    describes: "a ReadMe API token: `rdme_` and 70 letters and digits",
    gitleaks: "readme-api-token",
    pattern: token("rdme_", "[a-z0-9]{70}"),
  },
  {
    kind: "scalingo_token",
    describes: "a Scalingo API token: `tk-us-` and 48 characters",
    gitleaks: "scalingo-api-token",
    pattern: token("tk-us-", "[A-Za-z0-9_-]{48}"),
  },
  {
    kind: "settlemint_token",
    describes: "a SettleMint token: `sm_pat_`, `sm_aat_` or `sm_sat_` and 16 letters and digits",
    gitleaks: "settlemint-personal-access-token, settlemint-application-access-token, settlemint-service-access-token",
    pattern: token("sm_(?:pat|aat|sat)_", "[A-Za-z0-9]{16}"),
    accept: generated(7),
  },
  {
    kind: "cloudflare_origin_ca_key",
    describes: "a Cloudflare origin CA key: `v1.0-`, 24 hex digits, `-`, 146 hex digits",
    gitleaks: "cloudflare-origin-ca-key",
    pattern: token(String.raw`v1\.0-`, "[a-f0-9]{24}-[a-f0-9]{146}"),
  },
  {
    kind: "openshift_token",
    needs: ["sha256~"],
    describes: "an OpenShift user token: `sha256~` and 43 characters",
    gitleaks: "openshift-user-token",
    pattern: /(?<![A-Za-z0-9_])sha256~[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])/g,
  },
  {
    kind: "sourcegraph_token",
    describes: "a Sourcegraph access token: `sgp_` (and 16 hex digits or `local`, `_`) and 40 hex digits",
    gitleaks: "sourcegraph-access-token",
    pattern: token("sgp_", "(?:[a-fA-F0-9]{16}_|local_)?[a-fA-F0-9]{40}"),
  },
  {
    kind: "clojars_token",
    describes: "a Clojars deploy token: `CLOJARS_` and 60 letters and digits",
    gitleaks: "clojars-api-token",
    pattern: token("CLOJARS_", "[a-z0-9]{60}", "gi"),
  },
  {
    kind: "aws_bedrock_key",
    needs: ["ABSK", "bedrock-api-key-"],
    describes: "an Amazon Bedrock API key: `ABSK` and 109 to 269 characters of base64, or `bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t...`",
    gitleaks: "aws-amazon-bedrock-api-key-long-lived, aws-amazon-bedrock-api-key-short-lived",
    pattern: /(?<![A-Za-z0-9_])(?:ABSK[A-Za-z0-9+/]{109,269}={0,2}|bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t[A-Za-z0-9+/=%&._-]*)/g,
  },
  {
    kind: "azure_ad_client_secret",
    needs: ["Q~"],
    describes: "an Azure AD (Entra) client secret: 3 characters, a digit, `Q~`, 31 to 34 characters",
    gitleaks: "azure-ad-client-secret",
    pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~-])/g,
    accept: (s) => entropy(s) > 3,
  },
];
