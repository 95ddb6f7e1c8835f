# ruff: noqa: E501  (n8n's templates, verbatim)
"""n8n's send-and-wait HTML, verbatim from ``n8n-nodes-base/dist/utils/sendAndWait/email-templates.js`` (2.41.1).

The mail bodies take ``message``, ``buttons`` (and ``link``) through :meth:`str.format`-free replacement, so
braces in a message are safe.
"""

from __future__ import annotations

BUTTON_STYLE_PRIMARY = "display:inline-block; text-decoration:none; background-color:#ff6d5a; color: #fff; padding:12px 24px; font-family: Arial,sans-serif; font-size:14px;font-weight:600; border-radius:6px; min-width:120px; margin: 12px 2px 0 2px;"
BUTTON_STYLE_SECONDARY = "display:inline-block; text-decoration:none; background-color:#fff; color:#4a4a4a; padding:12px 24px; font-family: Arial,sans-serif; font-size:14px;font-weight:600; border:1px solid #d1d1d1; border-radius:6px; min-width:120px; margin: 12px 6px 0 6px;"

#: The page a resume link answers with (``ACTION_RECORDED_PAGE``).
ACTION_RECORDED_PAGE = "\n\t<html lang='en'>\n\n\t<head>\n\t\t<meta charset='UTF-8' />\n\t\t<meta name='viewport' content='width=device-width, initial-scale=1.0' />\n\t\t<link rel='icon' type='image/png' href='https://n8n.io/favicon.ico' />\n\t\t<link\n\t\t\thref='https://fonts.googleapis.com/css?family=Open+Sans'\n\t\t\trel='stylesheet'\n\t\t\ttype='text/css'\n\t\t/>\n\t\t<title>Action recorded</title>\n\t\t<style>\n\t\t\t*, ::after, ::before { box-sizing: border-box; margin: 0; padding: 0; } body { font-family:\n\t\t\tOpen Sans, sans-serif; font-weight: 400; font-size: 12px; display: flex; flex-direction:\n\t\t\tcolumn; justify-content: start; background-color: #FBFCFE; } .container { margin: auto;\n\t\t\ttext-align: center; padding-top: 24px; width: 448px; } .card { padding: 24px;\n\t\t\tbackground-color: white; border: 1px solid #DBDFE7; border-radius: 8px; box-shadow: 0px 4px\n\t\t\t16px 0px #634DFF0F; margin-bottom: 16px; } .n8n-link a { color: #7E8186; font-weight: 600;\n\t\t\tfont-size: 12px; text-decoration: none; } .n8n-link svg { display: inline-block;\n\t\t\tvertical-align: middle; } .header h1 { color: #525356; font-size: 20px; font-weight: 400;\n\t\t\tpadding-bottom: 8px; } .header p { color: #7E8186; font-size: 14px; font-weight: 400; }\n\t\t</style>\n\t</head>\n\n\t<body>\n\t\t<div class='container'>\n\t\t\t<section>\n\t\t\t\t<div class='card'>\n\t\t\t\t\t<div class='header'>\n\t\t\t\t\t\t<h1>Got it, thanks</h1>\n\t\t\t\t\t\t<p>This page can be closed now</p>\n\t\t\t\t\t</div>\n\t\t\t\t</div>\n\t\t\t\t<div class='n8n-link'>\n\t\t\t\t\t<a\n\t\t\t\t\t\thref='https://n8n.io/?utm_source=n8n-internal&amp;utm_medium=send-and-wait'\n\t\t\t\t\t\ttarget='_blank'\n\t\t\t\t\t>\n\t\t\t\t\t\tAutomated with\n\t\t\t\t\t\t<svg\n\t\t\t\t\t\t\twidth='73'\n\t\t\t\t\t\t\theight='20'\n\t\t\t\t\t\t\tviewBox='0 0 73 20'\n\t\t\t\t\t\t\tfill='none'\n\t\t\t\t\t\t\txmlns='http://www.w3.org/2000/svg'\n\t\t\t\t\t\t>\n\t\t\t\t\t\t\t<path\n\t\t\t\t\t\t\t\tfill-rule='evenodd'\n\t\t\t\t\t\t\t\tclip-rule='evenodd'\n\t\t\t\t\t\t\t\td='M40.2373 4C40.2373 6.20915 38.4464 8 36.2373 8C34.3735 8 32.8074 6.72525 32.3633 5H26.7787C25.801 5 24.9666 5.70685 24.8059 6.6712L24.6415 7.6576C24.4854 8.59415 24.0116 9.40925 23.3417 10C24.0116 10.5907 24.4854 11.4058 24.6415 12.3424L24.8059 13.3288C24.9666 14.2931 25.801 15 26.7787 15H28.3633C28.8074 13.2747 30.3735 12 32.2373 12C34.4464 12 36.2373 13.7908 36.2373 16C36.2373 18.2092 34.4464 20 32.2373 20C30.3735 20 28.8074 18.7253 28.3633 17H26.7787C24.8233 17 23.1546 15.5864 22.8331 13.6576L22.6687 12.6712C22.508 11.7069 21.6736 11 20.6959 11H19.0645C18.5652 12.64 17.0406 13.8334 15.2373 13.8334C13.434 13.8334 11.9094 12.64 11.4101 11H9.06449C8.56519 12.64 7.04059 13.8334 5.2373 13.8334C3.02817 13.8334 1.2373 12.0424 1.2373 9.83335C1.2373 7.6242 3.02817 5.83335 5.2373 5.83335C7.16069 5.83335 8.76699 7.19085 9.15039 9H11.3242C11.7076 7.19085 13.3139 5.83335 15.2373 5.83335C17.1607 5.83335 18.767 7.19085 19.1504 9H20.6959C21.6736 9 22.508 8.29315 22.6687 7.3288L22.8331 6.3424C23.1546 4.41365 24.8233 3 26.7787 3H32.3633C32.8074 1.27478 34.3735 0 36.2373 0C38.4464 0 40.2373 1.79086 40.2373 4ZM38.2373 4C38.2373 5.10455 37.3419 6 36.2373 6C35.1327 6 34.2373 5.10455 34.2373 4C34.2373 2.89543 35.1327 2 36.2373 2C37.3419 2 38.2373 2.89543 38.2373 4ZM5.2373 11.8334C6.34189 11.8334 7.23729 10.9379 7.23729 9.83335C7.23729 8.72875 6.34189 7.83335 5.2373 7.83335C4.13273 7.83335 3.2373 8.72875 3.2373 9.83335C3.2373 10.9379 4.13273 11.8334 5.2373 11.8334ZM15.2373 11.8334C16.3419 11.8334 17.2373 10.9379 17.2373 9.83335C17.2373 8.72875 16.3419 7.83335 15.2373 7.83335C14.1327 7.83335 13.2373 8.72875 13.2373 9.83335C13.2373 10.9379 14.1327 11.8334 15.2373 11.8334ZM32.2373 18C33.3419 18 34.2373 17.1045 34.2373 16C34.2373 14.8954 33.3419 14 32.2373 14C31.1327 14 30.2373 14.8954 30.2373 16C30.2373 17.1045 31.1327 18 32.2373 18Z'\n\t\t\t\t\t\t\t\tfill='#EA4B71'\n\t\t\t\t\t\t\t></path>\n\t\t\t\t\t\t\t<path\n\t\t\t\t\t\t\t\td='M44.2393 15.0007H46.3277V10.5791C46.3277 9.12704 47.2088 8.49074 48.204 8.49074C49.183 8.49074 49.9498 9.14334 49.9498 10.4812V15.0007H52.038V10.057C52.038 7.91969 50.798 6.67969 48.8567 6.67969C47.633 6.67969 46.9477 7.16914 46.4582 7.80544H46.3277L46.1482 6.84284H44.2393V15.0007Z'\n\t\t\t\t\t\t\t\tfill='#101330'\n\t\t\t\t\t\t\t></path>\n\t\t\t\t\t\t\t<path\n\t\t\t\t\t\t\t\td='M60.0318 9.50205V9.40415C60.7498 9.0452 61.4678 8.4252 61.4678 7.20155C61.4678 5.43945 60.0153 4.37891 58.0088 4.37891C55.9528 4.37891 54.4843 5.5047 54.4843 7.23415C54.4843 8.4089 55.1698 9.0452 55.9203 9.40415V9.50205C55.0883 9.79575 54.0928 10.6768 54.0928 12.1452C54.0928 13.9237 55.5613 15.1637 57.9923 15.1637C60.4233 15.1637 61.8428 13.9237 61.8428 12.1452C61.8428 10.6768 60.8638 9.81205 60.0318 9.50205ZM57.9923 5.87995C58.8083 5.87995 59.4118 6.40205 59.4118 7.2831C59.4118 8.16415 58.7918 8.6863 57.9923 8.6863C57.1928 8.6863 56.5238 8.16415 56.5238 7.2831C56.5238 6.38575 57.1603 5.87995 57.9923 5.87995ZM57.9923 13.5974C57.0458 13.5974 56.2793 12.9937 56.2793 11.9658C56.2793 11.0358 56.9153 10.3342 57.9758 10.3342C59.0203 10.3342 59.6568 11.0195 59.6568 11.9984C59.6568 12.9937 58.9223 13.5974 57.9923 13.5974Z'\n\t\t\t\t\t\t\t\tfill='#101330'\n\t\t\t\t\t\t\t></path>\n\t\t\t\t\t\t\t<path\n\t\t\t\t\t\t\t\td='M63.9639 15.0007H66.0524V10.5791C66.0524 9.12704 66.9334 8.49074 67.9289 8.49074C68.9079 8.49074 69.6744 9.14334 69.6744 10.4812V15.0007H71.7629V10.057C71.7629 7.91969 70.5229 6.67969 68.5814 6.67969C67.3579 6.67969 66.6724 7.16914 66.1829 7.80544H66.0524L65.8729 6.84284H63.9639V15.0007Z'\n\t\t\t\t\t\t\t\tfill='#101330'\n\t\t\t\t\t\t\t></path>\n\t\t\t\t\t\t</svg>\n\n\t\t\t\t\t</a>\n\t\t\t\t</div>\n\t\t\t</section>\n\t\t</div>\n\t</body>\n\n</html>"

_BODY_WITH_ATTRIBUTION = '\n<!DOCTYPE html>\n<html lang=\'en\'>\n\n<head>\n\t<meta charset="UTF-8">\n\t<meta name="viewport" content="width=device-width, initial-scale=1.0">\n\t<title>My form</title>\n</head>\n\n<body\n\tstyle="font-family: Arial, sans-serif; font-size: 12px; background-color: #fbfcfe; margin: 0; padding: 0;">\n\t<table width="100%" cellpadding="0" cellspacing="0"\n\t\tstyle="background-color:#fbfcfe; border: 1px solid #dbdfe7; border-radius: 8px;">\n\t\t<tr>\n\t\t\t<td align="center" style="padding: 24px 0;">\n\t\t\t\t<table width="448" cellpadding="0" cellspacing="0" border="0"\n\t\t\t\t\tstyle="width: 100%; max-width: 448px; background-color: #ffffff; border: 1px solid #dbdfe7; border-radius: 8px; padding: 24px; box-shadow: 0px 4px 16px rgba(99, 77, 255, 0.06);">\n\t\t\t\t\t<tr>\n\t\t\t\t\t\t<td\n\t\t\t\t\t\t\tstyle="text-align: center; padding-top: 8px; font-family: Arial, sans-serif; font-size: 14px; color: #7e8186;">\n\t\t\t\t\t\t\t<p style="white-space: pre-line;">{message}</p>\n\t\t\t\t\t\t</td>\n\t\t\t\t\t</tr>\n\t\t\t\t\t<tr>\n\t\t\t\t\t\t<td align="center" style="padding-top: 12px;">\n\t\t\t\t\t\t\t\t{buttons}\n\t\t\t\t\t\t</td>\n\t\t\t\t\t</tr>\n\t\t\t\t</table>\n\n\t\t\t\t<!-- Divider -->\n\t\t\t\t<table width="100%" cellpadding="0" cellspacing="0" border="0" style="margin-bottom: 24px;">\n\t\t\t\t\t<tr>\n\t\t\t\t\t\t<td style="border-top: 0px solid #dbdfe7;"></td>\n\t\t\t\t\t</tr>\n\t\t\t\t</table>\n\n\t\t\t\t<!-- Footer -->\n\t\t\t\t<table width="100%" cellpadding="0" cellspacing="0" border="0"\n\t\t\t\t\tstyle="text-align: center; color: #7e8186; font-family: Arial, sans-serif; font-size: 12px;">\n\t\t\t\t\t<tr>\n\t\t\t\t\t\t<td>\n\t\t\t\t\t\t\t<a href={link}\n\t\t\t\t\t\t\t\ttarget="_blank" style="color: #7e8186; text-decoration: none;">Automated with\n\t\t\t\t\t\t\t\tn8n</a>\n\t\t\t\t\t\t</td>\n\t\t\t\t\t</tr>\n\t\t\t\t</table>\n\t\t\t</td>\n\t\t</tr>\n\t</table>\n</body>\n\n</html>\n\t'
_BODY_WITHOUT_ATTRIBUTION = '\n<!DOCTYPE html>\n<html lang=\'en\'>\n\n<head>\n\t<meta charset="UTF-8">\n\t<meta name="viewport" content="width=device-width, initial-scale=1.0">\n\t<title>My form</title>\n</head>\n\n<body\n\tstyle="font-family: Arial, sans-serif; font-size: 12px; background-color: #fbfcfe; margin: 0; padding: 0;">\n\t<table width="100%" cellpadding="0" cellspacing="0"\n\t\tstyle="background-color:#fbfcfe; border: 1px solid #dbdfe7; border-radius: 8px;">\n\t\t<tr>\n\t\t\t<td align="center" style="padding: 24px 0;">\n\t\t\t\t<table width="448" cellpadding="0" cellspacing="0" border="0"\n\t\t\t\t\tstyle="width: 100%; max-width: 448px; background-color: #ffffff; border: 1px solid #dbdfe7; border-radius: 8px; padding: 24px; box-shadow: 0px 4px 16px rgba(99, 77, 255, 0.06);">\n\t\t\t\t\t<tr>\n\t\t\t\t\t\t<td\n\t\t\t\t\t\t\tstyle="text-align: center; padding-top: 8px; font-family: Arial, sans-serif; font-size: 14px; color: #7e8186;">\n\t\t\t\t\t\t\t<p style="white-space: pre-line;">{message}</p>\n\t\t\t\t\t\t</td>\n\t\t\t\t\t</tr>\n\t\t\t\t\t<tr>\n\t\t\t\t\t\t<td align="center" style="padding-top: 12px;">\n\t\t\t\t\t\t\t\t{buttons}\n\t\t\t\t\t\t</td>\n\t\t\t\t\t</tr>\n\t\t\t\t</table>\n\n\t\t\t\t<!-- Divider -->\n\t\t\t\t<table width="100%" cellpadding="0" cellspacing="0" border="0" style="margin-bottom: 24px;">\n\t\t\t\t\t<tr>\n\t\t\t\t\t\t<td style="border-top: 0px solid #dbdfe7;"></td>\n\t\t\t\t\t</tr>\n\t\t\t\t</table>\n\n\n\t\t\t</td>\n\t\t</tr>\n\t</table>\n</body>\n\n</html>\n\t'


def email_body(message: str, buttons: str, *, instance_id: str | None, attribution: bool) -> str:
    """n8n's ``createEmailBodyWithN8nAttribution`` / ``createEmailBodyWithoutN8nAttribution``."""
    if not attribution:
        return _fill(_BODY_WITHOUT_ATTRIBUTION, message, buttons, "")
    campaign = f"&utm_campaign={instance_id}" if instance_id else ""
    link = f"https://n8n.io/?utm_source=n8n-internal&utm_medium=send-and-wait{campaign}"
    return _fill(_BODY_WITH_ATTRIBUTION, message, buttons, link)


def _fill(template: str, message: str, buttons: str, link: str) -> str:
    head, rest = template.split("{message}", 1)
    middle, tail = rest.split("{buttons}", 1)
    return head + message + middle + buttons + tail.replace("{link}", link)


def page(title: str, heading: str, text: str = "") -> str:
    """A page in the look of n8n's send-and-wait pages (``No action required``, ``Invalid link``)."""
    paragraph = f"<p>{text}</p>" if text else ""
    return (
        ACTION_RECORDED_PAGE.replace("<title>Action recorded</title>", f"<title>{title}</title>")
        .replace("<h1>Got it, thanks</h1>", f"<h1>{heading}</h1>")
        .replace("<p>This page can be closed now</p>", paragraph)
    )


#: n8n's ``send-and-wait-no-action-required`` page (a link of an execution that finished already).
NO_ACTION_REQUIRED_PAGE = page("No action required", "No action required")
#: The 401 page of a link whose signature is missing or wrong (n8n's ``form-invalid-token``).
INVALID_LINK_PAGE = page(
    "Invalid Form Link",
    "Invalid Form Link",
    "This form link is invalid or has expired. Please request a new link.",
)

__all__ = [
    "ACTION_RECORDED_PAGE",
    "BUTTON_STYLE_PRIMARY",
    "BUTTON_STYLE_SECONDARY",
    "INVALID_LINK_PAGE",
    "NO_ACTION_REQUIRED_PAGE",
    "email_body",
    "page",
]
