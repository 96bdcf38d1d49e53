-- qs.stringify with { arrayFormat: 'comma', encodeValuesOnly: true }: keys as they are, and every
-- value split at its commas, each piece encoded, joined with raw commas (qs 6.11 stringify.js).
return {
  name = "qs-comma-values",
  kind = "policy",
  description = "qs 6.11 qs.stringify with arrayFormat 'comma' and encodeValuesOnly: keys unencoded, commas raw",
  extends = "qs-comma",
  encode_keys = false,
}
