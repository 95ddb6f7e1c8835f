"""The additional fields n8n's HubSpot node turns into properties, in n8n's order: ``(field, property, how)``
where ``how`` is ``plain`` (as given), ``string`` (``toString()``), ``time`` (epoch milliseconds of the date),
``join`` (a list joined by ``;``) or ``custom`` (the ``customPropertiesUi`` entries)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from weft.nodes.values import js_string

CONTACT_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("annualRevenue", "annualrevenue", "string"),
    ("city", "city", "plain"),
    ("clickedFacebookAd", "hs_facebook_ad_clicked", "plain"),
    ("closeDate", "closedate", "time"),
    ("companyName", "company", "plain"),
    ("companySize", "company_size", "plain"),
    ("description", "description", "plain"),
    ("contactOwner", "hubspot_owner_id", "plain"),
    ("country", "country", "plain"),
    ("dateOfBirth", "date_of_birth", "plain"),
    ("degree", "degree", "plain"),
    ("facebookClickId", "hs_facebook_click_id", "plain"),
    ("faxNumber", "fax", "plain"),
    ("fieldOfStudy", "field_of_study", "plain"),
    ("firstName", "firstname", "plain"),
    ("gender", "gender", "plain"),
    ("googleAdClickId", "hs_google_click_id", "plain"),
    ("graduationDate", "graduation_date", "plain"),
    ("industry", "industry", "plain"),
    ("jobFunction", "job_function", "plain"),
    ("jobTitle", "jobtitle", "plain"),
    ("lastName", "lastname", "plain"),
    ("leadStatus", "hs_lead_status", "plain"),
    ("processingContactData", "hs_legal_basis", "plain"),
    ("lifeCycleStage", "lifecyclestage", "plain"),
    ("maritalStatus", "marital_status", "plain"),
    ("membershipNote", "hs_content_membership_notes", "plain"),
    ("message", "message", "plain"),
    ("mobilePhoneNumber", "mobilephone", "plain"),
    ("numberOfEmployees", "numemployees", "plain"),
    ("originalSource", "hs_analytics_source", "plain"),
    ("phoneNumber", "phone", "plain"),
    ("postalCode", "zip", "plain"),
    ("prefferedLanguage", "hs_language", "plain"),
    ("relationshipStatus", "relationship_status", "plain"),
    ("salutation", "salutation", "plain"),
    ("school", "school", "plain"),
    ("seniority", "seniority", "plain"),
    ("startDate", "start_date", "plain"),
    ("stateRegion", "state", "plain"),
    ("status", "hs_content_membership_status", "plain"),
    ("streetAddress", "address", "plain"),
    ("twitterUsername", "twitterhandle", "plain"),
    ("websiteUrl", "website", "plain"),
    ("workEmail", "work_email", "plain"),
    ("buyingRole", "hs_buying_role", "join"),
    ("countryRegionCode", "hs_country_region_code", "plain"),
    ("emailCustomerQuarantinedReason", "hs_email_customer_quarantined_reason", "plain"),
    ("employmentRole", "hs_role", "plain"),
    ("employmentSeniority", "hs_seniority", "plain"),
    ("employmentSubRole", "hs_sub_role", "plain"),
    ("enrichedEmailBounceDetected", "hs_enriched_email_bounce_detected", "plain"),
    ("inferredLanguageCodes", "hs_inferred_language_codes", "plain"),
    ("latestTrafficSource", "hs_latest_source", "plain"),
    ("latestTrafficSourceDate", "hs_latest_source_timestamp", "time"),
    ("linkedinUrl", "hs_linkedin_url", "plain"),
    ("memberEmail", "hs_content_membership_email", "plain"),
    ("militaryStatus", "military_status", "plain"),
    ("persona", "hs_persona", "plain"),
    ("prospectingAgentLastEnrolled", "hs_prospecting_agent_last_enrolled", "time"),
    ("prospectingAgentTotalEnrolledCount", "hs_prospecting_agent_total_enrolled_count", "plain"),
    ("stateRegionCode", "hs_state_code", "plain"),
    ("timeZone", "hs_timezone", "plain"),
    ("whatsappPhoneNumber", "hs_whatsapp_phone_number", "plain"),
    ("customPropertiesUi", "", "custom"),
)
COMPANY_CREATE_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("aboutUs", "about_us", "plain"),
    ("annualRevenue", "annualrevenue", "string"),
    ("city", "city", "plain"),
    ("closeDate", "closedate", "time"),
    ("companyDomainName", "domain", "plain"),
    ("companyOwner", "hubspot_owner_id", "plain"),
    ("countryRegion", "country", "plain"),
    ("description", "description", "plain"),
    ("facebookFans", "facebookfans", "plain"),
    ("googlePlusPage", "googleplus_page", "plain"),
    ("industry", "industry", "plain"),
    ("isPublic", "is_public", "plain"),
    ("leadStatus", "hs_lead_status", "plain"),
    ("lifecycleStatus", "lifecyclestage", "plain"),
    ("linkedinBio", "linkedinbio", "plain"),
    ("linkedInCompanyPage", "linkedin_company_page", "plain"),
    ("numberOfEmployees", "numberofemployees", "plain"),
    ("originalSourceType", "hs_analytics_source", "plain"),
    ("phoneNumber", "phone", "plain"),
    ("postalCode", "zip", "plain"),
    ("stateRegion", "state", "plain"),
    ("streetAddress", "address", "plain"),
    ("streetAddress2", "address2", "plain"),
    ("targetAccount", "hs_target_account", "plain"),
    ("timezone", "timezone", "plain"),
    ("totalMoneyRaised", "total_money_raised", "plain"),
    ("twitterBio", "twitterbio", "plain"),
    ("twitterFollowers", "twitterfollowers", "plain"),
    ("twitterHandle", "twitterhandle", "plain"),
    ("type", "type", "plain"),
    ("websiteUrl", "website", "plain"),
    ("webTechnologies", "web_technologies", "plain"),
    ("yearFounded", "founded_year", "plain"),
    ("customPropertiesUi", "", "custom"),
)
COMPANY_UPDATE_FIELDS: tuple[tuple[str, str, str], ...] = (("name", "name", "plain"), *COMPANY_CREATE_FIELDS)
DEAL_FIELDS: tuple[tuple[str, str, str], ...] = (
    ("dealName", "dealname", "plain"),
    ("dealOwner", "hubspot_owner_id", "owner"),
    ("closeDate", "closedate", "time"),
    ("amount", "amount", "plain"),
    ("dealType", "dealtype", "plain"),
    ("pipeline", "pipeline", "plain"),
    ("description", "description", "plain"),
    ("customPropertiesUi", "", "custom"),
)
DEAL_UPDATE_FIELDS: tuple[tuple[str, str, str], ...] = (("stage", "dealstage", "plain"), *DEAL_FIELDS)


def epoch_ms(value: Any) -> int | None:
    """JavaScript's ``new Date(value).getTime()`` for ISO dates and epoch numbers (None for an invalid date)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return int(value)
    text = str(value).strip()
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC) if len(text) <= 10 else parsed.astimezone()
    return int(parsed.timestamp() * 1000)


def properties(fields: dict[str, Any], table: tuple[tuple[str, str, str], ...], key: str) -> list[dict[str, Any]]:
    """The ``[{<key>: property, value}]`` list of the fields set, in the table's order."""
    out: list[dict[str, Any]] = []
    for field, name, how in table:
        value = fields.get(field)
        if not value:
            continue
        if how == "custom":
            for entry in (value or {}).get("customPropertiesValues") or []:
                out.append({key: entry.get("property"), "value": entry.get("value")})
            continue
        if how == "string":
            value = js_string(value)
        elif how == "time":
            value = epoch_ms(value)
        elif how == "join" and isinstance(value, list):
            value = ";".join(js_string(v) for v in value)
        elif how == "owner":
            value = value.get("value") if isinstance(value, dict) else None
        out.append({key: name, "value": value})
    return out


__all__ = ["COMPANY_CREATE_FIELDS", "COMPANY_UPDATE_FIELDS", "CONTACT_FIELDS", "DEAL_FIELDS", "properties"]
