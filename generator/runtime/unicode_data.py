"""Unicode 17.0.0 data for the pattern runtime (ecma_regex), written by
tools/make_unicode_tables.py from unicodedata2: do not edit, run the script.
CATEGORY_RUNS is the General_Category of every code point, as runs (encoding: the
script's docstring); ecma_regex_sets reads it."""

from __future__ import annotations

UNICODE_VERSION = "17.0.0"
DIGITS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
CATEGORIES = (
    "Cc Cf Cn Co Cs Ll Lm Lo Lt Lu Mc Me Mn Nd Nl No Pc Pd Pe Pf Pi Po Ps Sc Sk Sm So"
    " Zl Zp Zs"
)
CATEGORY_RUNS = (
    "9CdiRXiRWSVZVRhTobhTiVhT3XWVSYQY3TWZSZ+AdVjRaVYaHUZBaYaZhNYFhTYPHTiLV0dZld1X"
    "ZmXJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJhDJFJFJFJFJFJFJFJh"
    "DJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFhHFJFJiBhHFJFhHFiFhDjDFhHFiFi"
    "BhHFhHFJFJFhHFJhDJFhHFiFFJFhHhDHJiBjBJIFJIFJIFJFJFJFJFJFJFJFJhDJFJFJFJFJFJFJ"
    "FJFJhDJIFJFiFFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJlZhHF"
    "hHhDJFjDFJFJFJFJh/dhF3TwEjSqQsejemMGYGvYjoOJFJFGYJFhAGiBVJichWJViFCJChHFvJCn"
    "ZhgBJhDiFiBJFJFJFJFJFJFJFJFJFJFJFJjdJFZJFhHhDhvFhsHJFJFJFJFJFJFJFJFJFJFJFJFJ"
    "FJFJFJFJFakEhJJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFhHFJFJFJ"
    "FJFJFJhDJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJF"
    "JFJFJFJFJFJFJFJFJFJFJFJFJFJFChifhAGlLhlVVRhAhYXChpURMVhKVhKVMmU4TicjBhTpOkXi"
    "VhTXhThYpYVBiR9JGoVzEobjPhFMi8DVHmABalChEhKajGhFobiDhYHsbCBHM7N4YhAiyXpYHsIo"
    "b+HnchEaiRGhAMhVzdjGGncGiIGkEhAtZC2XiIhAVCpTja1ZYlbfjanchlXG1eB9OKhxdMKMHiGm"
    "ejEMhIHmAoVhKhTobVGtLMhICmZhAhFhAzdClbCHhejBhAMHiGjGhAhIhAhIMHmUKichFCiDhKhA"
    "obhFhVlFaXHVMhAhKKCkdichFhAzdClbChFChFChFhAMCiGhKichKhAiIheMlWjBCHlWobhKiDMV"
    "oQhKKCnXCiDCzdClbChFCjfhAMHiGkEChKKChIMhAHtGhFhKhAobVXlWHlCCMhICmZhAhFhAzdCl"
    "bChFCjfhAMHKMKjGhAhIhAhIMlWhKKichFCiDhKhAobaHlFoQMHCkdheiDCjBhehFCHChFhehFhe"
    "iDheqRichIMhIheiGCiGMhAHkYKsIobiLlQXajaMiGMmZCiDC0bCuJhAMHiIjECiICjGlWhKCiDC"
    "hFhAhFhKhAoblWVmDaHMhIVmZCiDC0bCoVCjfhAMHKMkCCMhIChIhKlWhIjaiDChFhKhAobChFKq"
    "MhKhInXCiDChlXhKHiGjGCiGCiGMHaiciDKmDiDhKhAobnfakdCMhICwFhe1ZCnXCHhAlbheMici"
    "GiICMCmckYobhAhIVqMhsJMhFmAicXkdGmeVobhThhahFCHCjfC1ZCHCoVMhFncHhAjfCGCmACob"
    "hAjB9EHiWtZaViWhKlQobodaMaMaMWSWShImZChhBicsSKkEVhKjfpYChhGCnMMlQChYkNjUhThh"
    "ahnThIjGKlCKhKhIhKHoblLkdhIhKjBiIHiGhFleiDjGrPMhIhKlAMHKobiGMhYhifCJjaJhAhnR"
    "VGiBpzXCjBhAlbCHCjBhAhlXCjBhA+HCjBhAlbCHCjBhAtLCh0XCjBhAh+DhAiIoFyJheuJpIkYi"
    "vfhAkbhARykRaVvHd3VWSheilTiRiKmZlWwFiIKnSxDhKKhTnSwFhKqMrPCiDChKqMhwBhKKmAmc"
    "MhIpYiRGiRXHMhAobkYodkYlLRjPiIBMobkYhgDGhwflWjfhK/FMHjaigdoQ8LCiIjEhKiGichIM"
    "lAiIicahehTob7NhAjfpOhoRic3VkYobPhe/Y0bhKhIMhAhThwfKMKmACMKMhImelAoahAMobkYo"
    "bkYmJGlLhAsSL8QhAqWxcjGKhrLMKkEKMkCMhImZChTobmJpIncoKiRhKK7NKjGhIhKKiIhFobho"
    "RMKhKiGMKiIhImUjPhhBmcmehIhKhekNobheiDob7NkchTnVJFjahnVhAiFnHmUiIVrUKmAjBMkd"
    "MhFKhKHjahoPh6KrNG/Dhheh7OJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJF"
    "JFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJF"
    "JFJFJFJFJFJFJFJFJFJFJFJnVJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJ"
    "FJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJnVmbkbhAkfhAmXmbmXmbkbhAkfhAmX"
    "CJCJCJCJmXmbsLhAmXmamXmamXmajdChDjDIYFiUiBChDjDIiUifhAhDjDCiUmXkBiUhAiBChDjD"
    "IhWCqJjZlHhTUTWhSTWUnHbcjZdoFUTjPhOiRZWSqBZVQpDdjZCoPPGhAlFiVWSGodiVWSCrOhe/"
    "VsIrUjFMiHqWtGhYJjUJhYFiFhDiFFaJhYZkBlQJaJaJajDaFjDFjBFhYhDhHkRJifaZhYFauRhg"
    "KJFjIPhYickRkShXjUZhYZhYZmOZ8ehXhYZaZ8en7DnMWSWSyUhXmOWSiraZ8A3JhlMlPijMzYqG"
    "yah3ZipA0FlrOZoKZhyQnLjneZnoMWSWSWSWSWSWSWS7VhpEkRWS8dWSWSWSWSWSubnvcj6VWSWS"
    "WSWSWSWSWSWSWSWSWSh6dWSWS9bWSnxXhsczRhYlPhkOhAkhIhsLhsHJFiFhDJFJFJFjDFJhDJkb"
    "hEiFFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJ"
    "FJFJFJFJFJFJFJFJFJFJFJFJFJhDlQJFJFiIJFjajPPhThibCFjaFhAhzZlWGVsIM0bnSlbClbCl"
    "bClbClbClbClbClbC9OhTUTUTiRUTVUToFRhTRVUThTUTWSWSWSWSkNGpDhPjPRVWrdhYiRWSWSW"
    "SWSR/A4ICizKqMmoQ3QucdiRaGHOWSWSWSWSWShYWSWSWSWSRWhQanejGhIRjehYiKGHVhYCivdh"
    "AhKhWhEHRizVViCHjahnTCi3NChYjJpI9JhjQnSauJ8eCod8AnBatT9codhkOtTprcmhjJh7czny"
    "fGhhubhehzOnShkZkchTn6RGiRuJobhFxcJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJF"
    "JFJFHMiHVoaVGJFJFJFJFJFJFJFJFJFJFJFJFJFJFhEhKigdochKlLmU1MnWhWJFJFJFJFJFJFJi"
    "BJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFJFGmXJFJFhHFJFJ"
    "FJFJFGhWJFJFHJFJiBJFJFJFJFJFJFJFJFJFJFkBFkBFJFJFJFJFJFJFJFjDFJFhHFJFJFJFJFJF"
    "JFJFJxcjAJFHhEFlbMiDMjBM0bhIhKKjUMhelFhYXakYhwBjPmUhIhuFuMhKmUhTobkYwKkdiRHV"
    "hFMob5RmehT0bpYhIpOV6PheiIKhrLMhIjGhIhKiGrdCGobichTjfMGnXobjfChlXlChIhKhIhKn"
    "SiDMmZMKhAobhAjPuJGkdiWHKMKhuFMHiIhFhKjfhKHMH1UhFGhTpTKhKhIhTHhEKMoQkdhAkdhA"
    "kdnSlbClbChnRYjAnVGhWiciqHhgDhIMhIMhIVKMhAobkYqnpBqM0bichtHich7/Gl7vFq2NhAji"
    "VhiYlZqMjdjaHMoVZrPCjfCHChFChFCjkRvYucqzTSWuch7JhYhxdnM9EqRXiWuOmJWSVkYuOVhP"
    "hOWSWSWSWSWSWSWSWShTWSjPiMiRCjPRWSWSWSiRZRiVCVXhTicjfCj9bhABCiRXiRWSVZVRhTob"
    "hTiVhT3XWVSYQY3TWZSZWSVWShToVGhpPhE8LhekdhAkdhAkdhAiDhehVZYahVCajThYoQhdhYhA"
    "qRC3VCxDChFCtLhAsN/AjyTjaiRichpXheoKhxGjJvahNiWCsCheahrGhqCMj5A6PhehtHtGM4bi"
    "c9JjJnSyBOmZOjahidkEja7NCVhhBicmZVkGhmQhkbhkXioNhAobkYhhDichgfichkZmUhwBpOVp"
    "VCtNCldChHCpRCtJClZChDhehwBqMpibnSzdoQmZ1UkcChmUCnWh/akdhAHChoRChFheHhA0bCVn"
    "B0bhYmD8LmUnfhsExDChFjakHzdlFheV3VjaV3VhiYhzZichNhFuRhAhqVHiIChKjajGjBCiDC6P"
    "hAiIicMnflWoFlW6PhNV6PiL9EmZa5RhKickHmJnShxdhemJzdhAnBxDjanBwFlWjPqMmDiqEijX"
    "hyWhvFrKhvBlWlFhhBjGmUobkYobjBGHzfhekERGzbmUhXmiE8TChmVChKRhAhFuEiDGhFmUVnM+"
    "ClC6PodHmUzdpYjJkNzYwFjGjPhiYyfmDxc0bnSKMKhwftQmJicyJobMhFhKHnSiIKhpPiGjGhIh"
    "KhTBjPMoQBhA2XlWobkYiIhhBkEKmeCobjPHhIHmUhgDMhTHnShKKhsJiGnchIjBjPjGVKMobHVH"
    "iRCyJpOwFC2XiGiIhIMKhKlLMhFMh5IlbCHCjBCtLCoVVkYhrLMiGmejaobkYhKhICmZhAhFhAzd"
    "ClbChFCjfChKHhIMjEhAhIhAiGhAHkYKjajfhIhAmAhekEpOoVCHhAHChidCHiGlCCKhAKCjEChI"
    "MKMHMHhTChTmUhK6KhwfiGmehIiIKMjBkNobhTCVMiD7IhsJiGlCKMjEhKKhKhFVHmUobk6YhrLi"
    "GjGhAjEhKKhK1JjBhK/AhsJiGmehIMKhKiRHpOobkYrdwehnTMKMhIlCKMHVkYobkYyH5M4ThAMK"
    "MhIjGKkEicobhNiRalblsShoRiGncKhKVi8c9L9HobnfqMmZhAHhAmZChFC1ZlAChIhAhKKMHKHK"
    "MiRnSobigYmZhAhjbiGjGhAhKjEMHVHK4OHoahkZlCKHjGnHMmUHlChIiIhqNrUKhKiRHkNrKijX"
    "lWpDivYMKiIKMKixU+HVsIobkYnXChhfKmAClCKMHkNoQobxLhehT7NhA0CCKmAKhKKhKijSlbCh"
    "FChidlCheMChKCmAHMmUobkYkdChFC9JkCChKChIMKMHlWobkYhlXGhFicobnlYxDhKhIhTlWhKH"
    "KrPC/FhIkEhehIMKMrdobMiuaHtGzHnMjRvarKV6/Vi+YjnSCkNpOl3BitmMi6HhTrK/sJuDMkdt"
    "QoQj1gTjaxhbmosS7NqWiGiIobhy4Yw0XlW8LCobichTipLCobkY7NhAkEVoQhsJmAkNjUjAVaoQ"
    "obCmDCyfjaxDs0EiChkZhEiRobl4Y9L9H1DjPja2ZhA2VhoMilTicMHhyelWjGrOh7EhEVGMpOhI"
    "hEiKnSm4ndhlS9Ji6CjrDn+8KjAClaChECowDtGH6KiDhAHsIjBmUryRijycjjTjarPhenXlWoVh"
    "AahKVibjzlMngcobiWhes4UkY1OtGucZtGhqShA1AnSjsUh3MnmQoQhkOhAh4EhIiIiWlAmTmehY"
    "mA8AjGh5Cyah9YiIajxQyJqMyJqMixOnS2fj9W3X3T3XlZCwD3X3TJChHhAJhAhHhAjDCmbifCFC"
    "lZCpR3X3ThHCjDhAmbCldC3ThHCjDCkBCJheldC3T3X3T3X3T3X3T3X3T3X3T3X5PhA2ZZ2VZkb2"
    "ZZ2VZkb2ZZ2VZkb2ZZ2VZkb2ZZ2VZkbJFhAhuLu/chzAjUhuKnMMtAMhYkNtGkECtQhgqEoTHxfk"
    "YkbmmamACvMhAmAChKCkEjah5M+CMjoEhpPhemAlahAobicHaprE7NMvChoRjGobjaXtyE4TGjGo"
    "bmnY7NhKHobicVlzE8LCiDMhFMlbhKjfMmUHGmxElbCjBChFCtLCl3fhAnfmAhlS/H/DmAGicobi"
    "chT2/Ch2baiLXjJimMhpXatTl1AjBC4TChFCHhAHCoVCjBCHCHkYHicHCHCHCiDChFCHhAHCHCHC"
    "HCHChFCHhAjBClbCjBCjBCHCoVCvHjaiDCjfCvHhvchXn8IhpEici9UqMtehAteCteChiSoQrXk2"
    "ahzU7CrKhpEicoKlWhYsIlQkvQnrGkQ1rKhevahesChemsIkYrEicatGrEich0MmUpIkYhlMmU8A"
    "hArEichYsIoJhjWqiMmUtAhAsCheqGheh1KCaicuchArEicpIlWkpWCi2Eoba+jahnjxJ9EkgrNh"
    "AlpkNhAm69HtGymNionAv7NhsjAkw1Tjan42V0n2tWB7Ii5Dj3EngOh7xuEh7/9JhAh7/9JhA"
)
# General_Category value names ECMA-262 accepts, each with the categories it means.
GENERAL_CATEGORY_VALUES = (
    ("C", "Cc Cf Cn Co Cs"),
    ("Other", "Cc Cf Cn Co Cs"),
    ("Cc", "Cc"),
    ("Control", "Cc"),
    ("cntrl", "Cc"),
    ("Cf", "Cf"),
    ("Format", "Cf"),
    ("Cn", "Cn"),
    ("Unassigned", "Cn"),
    ("Co", "Co"),
    ("Private_Use", "Co"),
    ("Cs", "Cs"),
    ("Surrogate", "Cs"),
    ("L", "Ll Lm Lo Lt Lu"),
    ("Letter", "Ll Lm Lo Lt Lu"),
    ("LC", "Ll Lt Lu"),
    ("Cased_Letter", "Ll Lt Lu"),
    ("Ll", "Ll"),
    ("Lowercase_Letter", "Ll"),
    ("Lm", "Lm"),
    ("Modifier_Letter", "Lm"),
    ("Lo", "Lo"),
    ("Other_Letter", "Lo"),
    ("Lt", "Lt"),
    ("Titlecase_Letter", "Lt"),
    ("Lu", "Lu"),
    ("Uppercase_Letter", "Lu"),
    ("M", "Mc Me Mn"),
    ("Mark", "Mc Me Mn"),
    ("Combining_Mark", "Mc Me Mn"),
    ("Mc", "Mc"),
    ("Spacing_Mark", "Mc"),
    ("Me", "Me"),
    ("Enclosing_Mark", "Me"),
    ("Mn", "Mn"),
    ("Nonspacing_Mark", "Mn"),
    ("N", "Nd Nl No"),
    ("Number", "Nd Nl No"),
    ("Nd", "Nd"),
    ("Decimal_Number", "Nd"),
    ("digit", "Nd"),
    ("Nl", "Nl"),
    ("Letter_Number", "Nl"),
    ("No", "No"),
    ("Other_Number", "No"),
    ("P", "Pc Pd Pe Pf Pi Po Ps"),
    ("Punctuation", "Pc Pd Pe Pf Pi Po Ps"),
    ("punct", "Pc Pd Pe Pf Pi Po Ps"),
    ("Pc", "Pc"),
    ("Connector_Punctuation", "Pc"),
    ("Pd", "Pd"),
    ("Dash_Punctuation", "Pd"),
    ("Pe", "Pe"),
    ("Close_Punctuation", "Pe"),
    ("Pf", "Pf"),
    ("Final_Punctuation", "Pf"),
    ("Pi", "Pi"),
    ("Initial_Punctuation", "Pi"),
    ("Po", "Po"),
    ("Other_Punctuation", "Po"),
    ("Ps", "Ps"),
    ("Open_Punctuation", "Ps"),
    ("S", "Sc Sk Sm So"),
    ("Symbol", "Sc Sk Sm So"),
    ("Sc", "Sc"),
    ("Currency_Symbol", "Sc"),
    ("Sk", "Sk"),
    ("Modifier_Symbol", "Sk"),
    ("Sm", "Sm"),
    ("Math_Symbol", "Sm"),
    ("So", "So"),
    ("Other_Symbol", "So"),
    ("Z", "Zl Zp Zs"),
    ("Separator", "Zl Zp Zs"),
    ("Zl", "Zl"),
    ("Line_Separator", "Zl"),
    ("Zp", "Zp"),
    ("Paragraph_Separator", "Zp"),
    ("Zs", "Zs"),
    ("Space_Separator", "Zs"),
)
GENERAL_CATEGORY_NAMES = "General_Category gc"
SCRIPT_NAMES = "Script sc Script_Extensions scx"
# The binary properties ECMA-262 accepts as \p{Name}, space-separated.
BINARY_PROPERTIES = (
    "ASCII ASCII_Hex_Digit AHex Alphabetic Alpha Any Assigned Bidi_Control Bidi_C"
    " Bidi_Mirrored Bidi_M Case_Ignorable CI Cased Changes_When_Casefolded CWCF"
    " Changes_When_Casemapped CWCM Changes_When_Lowercased CWL"
    " Changes_When_NFKC_Casefolded CWKCF Changes_When_Titlecased CWT"
    " Changes_When_Uppercased CWU Dash Default_Ignorable_Code_Point DI Deprecated Dep"
    " Diacritic Dia Emoji Emoji_Component EComp Emoji_Modifier EMod"
    " Emoji_Modifier_Base EBase Emoji_Presentation EPres Extended_Pictographic"
    " ExtPict Extender Ext Grapheme_Base Gr_Base Grapheme_Extend Gr_Ext Hex_Digit Hex"
    " IDS_Binary_Operator IDSB IDS_Trinary_Operator IDST ID_Continue IDC ID_Start IDS"
    " Ideographic Ideo Join_Control Join_C Logical_Order_Exception LOE Lowercase"
    " Lower Math Noncharacter_Code_Point NChar Pattern_Syntax Pat_Syn"
    " Pattern_White_Space Pat_WS Quotation_Mark QMark Radical Regional_Indicator RI"
    " Sentence_Terminal STerm Soft_Dotted SD Terminal_Punctuation Term"
    " Unified_Ideograph UIdeo Uppercase Upper Variation_Selector VS White_Space space"
    " XID_Continue XIDC XID_Start XIDS"
)
