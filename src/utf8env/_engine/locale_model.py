"""A libc described by the user (`explain --locales NAME[=CODESET],...`) rather than
asked: the locales of another machine or image, for a prediction made here."""
from . import UsageError
from .codecs_by_version import glibc_spelling
from .policy import LocaleFacts
from .preconfig import C_LOCALE_NAMES

# nl_langinfo(CODESET) as glibc spells it for the codeset part of a locale name
# (en_US.ISO-8859-1, zh_CN.gb18030): a name's spelling varies, the codeset's does not.
# codecs_by_version.glibc_spelling knows every codeset glibc lists.

# A name without a codeset part (ka_GE, de_DE@euro) is the locale /usr/share/i18n/SUPPORTED
# lists under that name, with its charmap: ISO-8859-1 unless named here (the bare names of
# glibc 2.36's and 2.43's SUPPORTED, by codeset).
_BARE_NAMES = {
    "BIG5": "zh_TW",
    "BIG5-HKSCS": "zh_HK",
    "CP1251": "be_BY bg_BG",
    "CP1255": "yi_US",
    "GB2312": "zh_CN zh_SG",
    "GEORGIAN-PS": "ka_GE",
    "ISO-8859-10": "lg_UG",
    "ISO-8859-13": "lt_LT lv_LV mi_NZ",
    "ISO-8859-14": "cy_GB",
    "ISO-8859-15": (
        "an_ES ast_ES br_FR@euro ca_AD ca_ES@euro ca_FR ca_IT de_AT@euro de_BE@euro "
        "de_DE@euro de_LU@euro en_IE@euro es_ES@euro eu_ES@euro eu_FR@euro fi_FI@euro "
        "fr_BE@euro fr_FR@euro fr_LU@euro ga_IE@euro gd_GB gl_ES@euro it_IT@euro mg_MG "
        "nl_BE@euro nl_NL@euro pt_PT@euro sv_FI@euro wa_BE@euro"),
    "ISO-8859-2": "bs_BA cs_CZ hr_HR hsb_DE hu_HU pl_PL ro_RO sk_SK sl_SI",
    "ISO-8859-3": "mt_MT",
    "ISO-8859-5": "mk_MK ru_RU",
    "ISO-8859-6": (
        "ar_AE ar_BH ar_DZ ar_EG ar_IQ ar_JO ar_KW ar_LB ar_LY ar_MA ar_OM ar_QA ar_SA ar_SD "
        "ar_SY ar_TN ar_YE"),
    "ISO-8859-7": "el_CY el_GR el_GR@euro",
    "ISO-8859-8": "he_IL",
    "ISO-8859-9": "ku_TR tr_CY tr_TR",
    "KOI8-T": "tg_TJ",
    "KOI8-U": "ru_UA uk_UA",
    "PT154": "kk_KZ",
    "TIS-620": "th_TH",
    "UTF-8": (
        "aa_ER aa_ER@saaho aa_ET agr_PE ak_GH am_ET anp_IN ar_IN ar_SS as_IN ayc_PE az_AZ "
        "az_IR be_BY@latin bem_ZM ber_DZ ber_MA bho_IN bho_NP bi_VU bn_BD bn_IN bo_CN bo_IN "
        "brx_IN byn_ER ca_ES@valencia ce_RU chr_US ckb_IQ cmn_TW crh_RU crh_UA csb_PL cv_RU "
        "doi_IN dsb_DE dv_MV dz_BT en_AG en_IL en_IN en_NG en_ZM eo es_CU fa_IR ff_SN fil_PH "
        "fur_IT fy_DE fy_NL gbm_IN gez_ER gez_ER@abegede gez_ET gez_ET@abegede gu_IN ha_NG "
        "hak_TW hi_IN hif_FJ hne_IN ht_HT hy_AM ia_FR ig_NG ik_CA iu_CA kab_DZ km_KH kn_IN "
        "kok_IN ks_IN ks_IN@devanagari kv_RU ky_KG lb_LU li_BE li_NL lij_IT ln_CD lo_LA "
        "lzh_TW mag_IN mai_IN mai_NP mdf_RU mfe_MU mhr_RU miq_NI mjw_IN ml_IN mn_MN mni_IN "
        "mnw_MM mr_IN my_MM nan_TW nan_TW@latin nds_DE nds_NL ne_NP nhn_MX niu_NU niu_NZ "
        "nl_AW nr_ZA nso_ZA om_ET or_IN os_RU pa_IN pa_PK pap_AW pap_CW ps_AF quz_PE raj_IN "
        "rif_MA rw_RW sa_IN sah_RU sat_IN sc_IT scn_IT sd_IN sd_IN@devanagari se_NO sgs_LT "
        "shn_MM shs_CA si_LK sid_ET sm_WS so_ET sq_MK sr_ME sr_RS sr_RS@latin ss_ZA ssy_ER "
        "su_ID sw_KE sw_TZ syr szl_PL ta_IN ta_LK te_IN the_NP ti_ER ti_ET tig_ER tk_TM tn_ZA "
        "to_TO tok tpi_PG ts_ZA tt_RU tt_RU@iqtelif ug_CN unm_US ur_IN ur_PK uz_UZ@cyrillic "
        "ve_ZA vi_VN wae_CH wal_ET wo_SN yo_NG yue_HK yuw_PG zgh_MA"),
}


def _guess_codeset(name):
    """The codeset a libc gives a locale name such as en_US.ISO-8859-1 or zh_CN.gb18030."""
    if name.upper().replace("-", "") == "UTF8":
        return "UTF-8"
    base, dot, codeset = name.partition("@")[0].partition(".")
    if not dot:
        if base in C_LOCALE_NAMES:
            return "ANSI_X3.4-1968"
        for codeset, names in _BARE_NAMES.items():
            if name in names.split():
                return codeset
        return "ISO-8859-1"
    return glibc_spelling(codeset) or codeset.upper()


def modelled(text):
    """--locales NAME[=CODESET],...: LocaleFacts of a libc that has exactly these locales."""
    codesets = {}
    for item in text.split(","):
        name, sep, codeset = item.strip().partition("=")
        if not name or (sep and not codeset):
            raise UsageError("--locales %r: expected NAME[=CODESET],... such as "
                             "C.UTF-8,en_US.ISO-8859-1" % text)
        codesets[name] = codeset or _guess_codeset(name)
    return LocaleFacts(codesets)
