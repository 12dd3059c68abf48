"""Note-type composers: headers, sections, tables and signatures for ~20 kinds of clinical note.

Each composer writes one note of its kind into a :class:`~notescrub.synth.fill.NoteContext`,
mixing phrase-bank sentences (``resources/synth/phrases``) with structural pieces written
here: header blocks in several EHR layouts, medication lists, lab tables, vitals, cc lines.
:data:`NOTE_TYPES` maps a type name to ``(composer, weight, style)``; ``style`` says how the
note is rendered (lower-case shorthand, ALL CAPS, hard-wrapped...).

>>> import random
>>> from notescrub.synth.builder import NoteBuilder
>>> from notescrub.synth.fill import NoteContext
>>> from notescrub.synth.world import PatientWorld
>>> rng = random.Random(5)
>>> ctx = NoteContext(PatientWorld.sample("SYN0001", rng), rng, NoteBuilder(rng))
>>> NOTE_TYPES["radiology"][0](ctx)
>>> text, spans = ctx.b.build()
>>> len(text) > 200 and any(s.label == "DATE" for s in spans)
True
"""

from __future__ import annotations

from collections.abc import Callable

from notescrub.synth.fill import NoteContext

__all__ = ["NOTE_TYPES", "Composer"]

Composer = Callable[[NoteContext], None]

# -- structural helpers --------------------------------------------------------------

_HEAD_STYLES = ("CAPS:", "Title:", "CAPS\n", "Title\n", "caps:", "-- CAPS --\n")


def _heading(ctx: NoteContext, name: str, style: str) -> None:
    b = ctx.b
    if not b.ends_with_newline():
        b.nl()
    if ctx.rng.random() < 0.8:
        b.nl()
    if style == "CAPS:":
        b.text(name.upper() + ": ", noisy=False)
    elif style == "Title:":
        b.text(name + ": ", noisy=False)
    elif style == "CAPS\n":
        b.text(name.upper() + "\n", noisy=False)
    elif style == "Title\n":
        b.text(name + "\n", noisy=False)
    elif style == "caps:":
        b.text(name.lower() + ": ", noisy=False)
    else:
        b.text(f"-- {name.upper()} --\n", noisy=False)


def _section(ctx: NoteContext, style: str, names: tuple[str, ...], key: str, k: int, *, bullets: bool = False) -> None:
    _heading(ctx, ctx.rng.choice(names), style)
    r = ctx.rng
    if bullets:
        if not ctx.b.ends_with_newline():
            ctx.b.nl()
        mark = r.choice(("- ", "* ", "", "# "))
        numbered = r.random() < 0.3
        from notescrub.synth.fill import bank

        items = bank(key)
        for i, template in enumerate(r.sample(items, min(k, len(items)))):
            ctx.b.text(f"{i + 1}. " if numbered else mark, noisy=False)
            ctx.fill(template)
            ctx.b.nl()
    else:
        ctx.picks(key, k)


def _field(ctx: NoteContext, label: str, value: str, sep: str | None = None) -> None:
    r = ctx.rng
    if sep is None:
        sep = r.choice((": ", ": ", ":  ", " ", ":") + (() if label.endswith("#") else (" # ",)))
    ctx.fill(label + sep + value)


_HEADER_FIELDS: list[tuple[tuple[str, ...], str]] = [
    (("Patient", "Name", "Patient Name", "PATIENT", "Pt"), "{pt:header}"),
    (("MRN", "MR#", "Med Rec #", "Unit No", "MRN#"), "{id:MEDICALRECORD}"),
    (("DOB", "Date of Birth", "D.O.B.", "Birth date"), "{date:dob:full}"),
    (("Age", "Age/Sex"), "{age:num}"),
    (("Acct", "Account #", "FIN", "CSN", "Visit #"), "{id:ACCOUNT}"),
    (("Admit Date", "Admission Date", "Adm", "Admitted"), "{date:adm:full}"),
    (("Date of Service", "DOS", "Service Date", "Visit Date", "Date"), "{date:note:full}"),
    (("Attending", "Attending Physician", "Provider"), "{dr:attending:lfm}"),
    (("PCP", "Primary Care", "Referring MD"), "{dr:pcp:full}"),
    (("Location", "Unit", "Ward", "Floor"), "{unit}"),
    (("Facility", "Hospital", "Site"), "{hosp:name}"),
    (("Insurance", "Payer", "Plan"), "{insurer}"),
    (("Member ID", "Policy #", "Subscriber ID", "Ins ID"), "{id:HEALTHPLAN}"),
    (("SSN", "Soc Sec #"), "{ssn}"),
    (("Phone", "Home Phone", "Tel", "Cell"), "{phone:home}"),
    (("Address", "Addr"), "{street}, {city}, {state} {zip}"),
    (("Emergency Contact", "NOK", "HCP"), "{rel:full} ({relword}) {phone:relative}"),
    (("Sex", "Gender"), "{sexl}"),
    (("Alt MRN", "Hospital #", "Old MRN"), "{id:MRN2}"),
    (("Language", "Preferred language"), "{lang}"),
    (("Email", "E-mail"), "{email}"),
]


def _header(ctx: NoteContext, title: str, *, extra: tuple[int, int] = (3, 8), with_hosp: float = 0.6) -> None:
    r, b = ctx.rng, ctx.b
    if r.random() < with_hosp:
        ctx.fill(r.choice(("{hosp:caps}", "{hosp:name}", "{hosp:name} - {city}, {state}", "{hosp:name}\n{street}, {city}, {state} {zip}")))
        b.nl()
    b.text(r.choice((title.upper(), title, f"{title} Note", title.upper() + " NOTE")), noisy=False)
    if r.random() < 0.3:
        b.text("  ")
        ctx.fill("{date:note:full}")
    b.nl()
    fields = [_HEADER_FIELDS[0], _HEADER_FIELDS[1]] + r.sample(_HEADER_FIELDS[2:], r.randint(*extra))
    if r.random() < 0.5:
        r.shuffle(fields)
    layout = r.choice(("lines", "lines", "columns", "pipes", "packed"))
    for i, (labels, value) in enumerate(fields):
        label = r.choice(labels)
        if layout == "lines":
            _field(ctx, label, value)
            b.nl()
        elif layout == "columns":
            _field(ctx, label, value)
            b.text(" " * r.randint(3, 14) if i % 2 == 0 else "\n", noisy=False)
        elif layout == "pipes":
            _field(ctx, label, value)
            b.text(" | " if i < len(fields) - 1 else "\n", noisy=False)
        else:  # packed: bad extraction drops separators
            fused = ("{id:" in value or "{date:" in value) and r.random() < 0.5
            saved, ctx.fuse_rate = ctx.fuse_rate, (1.0 if fused else ctx.fuse_rate)
            _field(ctx, label, value, sep=" " if fused else r.choice((":", ": ", " ")))
            ctx.fuse_rate = saved
            b.text(" " if r.random() < 0.7 else "\n", noisy=False)
    if not b.ends_with_newline():
        b.nl()


def _med_list(ctx: NoteContext, n: int) -> None:
    r, b = ctx.rng, ctx.b
    mark = r.choice(("- ", "* ", "", "1. "))
    for i in range(n):
        b.text(f"{i + 1}. " if mark == "1. " else mark, noisy=False)
        ctx.fill("{med}")
        b.nl()


def _lab_table(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    days = sorted(r.sample(range(-6, 1), r.randint(2, 4)))
    b.text(r.choice(("LABS", "Labs", "Lab trend", "LABORATORY DATA")) + " " * r.randint(4, 10), noisy=False)
    for d in days:
        ctx.fill(f"{{rdate:{d}:md}}")
        b.text(" " * r.randint(3, 6), noisy=False)
    b.nl()
    for analyte, lo, hi, dec in (("Na", 125, 146, 0), ("K", 3, 6, 1), ("Cr", 0, 4, 2), ("WBC", 3, 22, 1), ("Hgb", 6, 15, 1), ("Plt", 40, 450, 0), ("Lactate", 0, 6, 1)):
        if r.random() < 0.3:
            continue
        b.text(f"  {analyte:<10}", noisy=False)
        for _ in days:
            v = r.uniform(lo, hi)
            b.text(f"{v:<7.{dec}f}", noisy=False)
        b.nl()


def _signature(ctx: NoteContext) -> None:
    b = ctx.b
    if not b.ends_with_newline():
        b.nl()
    b.nl()
    ctx.pick("signature")
    b.nl()
    if ctx.rng.random() < 0.35:
        ctx.pick("cc_list")
        b.nl()


def _style(ctx: NoteContext) -> str:
    return ctx.rng.choice(_HEAD_STYLES)


# -- note types ---------------------------------------------------------------------

def ed_note(ctx: NoteContext) -> None:
    r = ctx.rng
    _header(ctx, r.choice(("Emergency Department Note", "ED Provider Note", "ED Physician Documentation", "Emergency Dept Record")))
    st = _style(ctx)
    _heading(ctx, r.choice(("Chief Complaint", "CC", "Reason for visit")), st)
    ctx.fill("{cc}")
    _section(ctx, st, ("Triage", "Arrival"), "ed_triage", 1)
    _heading(ctx, r.choice(("HPI", "History of Present Illness", "History")), st)
    ctx.pick("intro")
    ctx.b.text(" ")
    ctx.picks("hpi", r.randint(2, 4))
    ctx.b.text(" ")
    ctx.picks("hpi_plain", r.randint(2, 5))
    _section(ctx, st, ("PMH", "Past Medical History"), "pmh", r.randint(2, 5), bullets=True)
    _section(ctx, st, ("Social History", "SH", "Social"), "social", r.randint(1, 2))
    _section(ctx, st, ("Exam", "Physical Exam", "PE"), "exam", r.randint(4, 8), bullets=r.random() < 0.5)
    _section(ctx, st, ("Labs/Imaging", "Results", "Data"), "labs_intro", r.randint(1, 3), bullets=True)
    _section(ctx, st, ("ED Course", "Course", "MDM / ED course"), "ed_course", r.randint(2, 4))
    _section(ctx, st, ("Disposition", "Dispo", "Plan"), "ed_dispo", 1)
    _signature(ctx)


def discharge_summary(ctx: NoteContext) -> None:
    r = ctx.rng
    _header(ctx, r.choice(("Discharge Summary", "DISCHARGE SUMMARY", "Hospital Discharge Summary", "Death/Discharge Summary")), extra=(4, 9))
    st = _style(ctx)
    _field(ctx, "Discharge Date", "{date:note:full}")
    ctx.b.nl()
    _heading(ctx, r.choice(("Principal Diagnosis", "Discharge Diagnosis", "Diagnoses")), st)
    ctx.fill("{dx}")
    _heading(ctx, r.choice(("HPI", "History of Present Illness", "Reason for Admission")), st)
    ctx.pick("intro")
    ctx.b.text(" ")
    ctx.picks("hpi", r.randint(2, 4))
    _heading(ctx, r.choice(("Hospital Course", "Brief Hospital Course", "Course by problem")), st)
    ctx.picks("dc_course", r.randint(3, 6), sep=r.choice((" ", "\n", "\n\n")))
    if r.random() < 0.5:
        _section(ctx, st, ("Procedures", "Procedures this admission"), "psh", r.randint(1, 2), bullets=True)
    if r.random() < 0.4:
        ctx.b.nl()
        _lab_table(ctx)
    ctx.b.nl(2)
    ctx.pick("dc_meds_header")
    ctx.b.nl()
    _med_list(ctx, r.randint(3, 9))
    _section(ctx, st, ("Follow-up", "Follow Up Appointments", "Discharge Instructions"), "dc_followup", r.randint(2, 4), bullets=True)
    _heading(ctx, "Condition at discharge", st)
    ctx.fill("{~stable|improved|good|fair, ambulating with walker}. Discharged to {~home|home with services|{snf}|{snf} (rehab)}.")
    _signature(ctx)


def hp_note(ctx: NoteContext) -> None:
    r = ctx.rng
    _header(ctx, r.choice(("Admission H&P", "History and Physical", "H&P", "Admission Note", "Medicine Admission Note")))
    st = _style(ctx)
    if r.random() < 0.7:
        ctx.b.nl()
        ctx.picks("hp_header_extra", r.randint(1, 3), sep="\n")
    _heading(ctx, r.choice(("CC", "Chief Complaint")), st)
    ctx.fill("{cc}")
    _heading(ctx, r.choice(("HPI", "History of Present Illness")), st)
    ctx.pick("intro")
    ctx.b.text(" ")
    ctx.picks("hpi", r.randint(2, 5))
    ctx.b.text(" ")
    ctx.picks("hpi_plain", r.randint(2, 5))
    _section(ctx, st, ("PMH", "Past Medical History", "PMHx"), "pmh", r.randint(3, 6), bullets=True)
    _section(ctx, st, ("PSH", "Past Surgical History"), "psh", r.randint(1, 3), bullets=True)
    _heading(ctx, r.choice(("Medications", "Home Medications", "Outpatient meds")), st)
    ctx.b.nl()
    _med_list(ctx, r.randint(2, 8))
    _section(ctx, st, ("Allergies", "ALL"), "allergy", 1)
    _section(ctx, st, ("Social History", "SHx"), "social", r.randint(1, 3))
    _section(ctx, st, ("Family History", "FHx"), "family", r.randint(1, 2))
    _section(ctx, st, ("ROS", "Review of Systems"), "ros", 1)
    _section(ctx, st, ("Physical Exam", "Exam"), "exam", r.randint(4, 8), bullets=True)
    _section(ctx, st, ("Labs", "Data"), "labs_intro", r.randint(1, 2))
    _section(ctx, st, ("Imaging", "Studies"), "imaging", r.randint(1, 3), bullets=True)
    _section(ctx, st, ("Assessment and Plan", "A/P", "Impression/Plan"), "ap", r.randint(3, 7), bullets=True)
    _signature(ctx)


def progress_note(ctx: NoteContext) -> None:
    r = ctx.rng
    if r.random() < 0.5:
        _header(ctx, r.choice(("Progress Note", "Daily Progress Note", "Hospital Medicine Progress Note")), extra=(1, 4), with_hosp=0.3)
    else:
        ctx.fill(r.choice(("Progress Note - {spec}    {date:note:full} {time}\n", "PROGRESS NOTE {date:note:mdY}\n", "HD#{num:1} {unit}  {date:note:md}\n")))
        ctx.fill("{pt:header}   MRN {id:MEDICALRECORD}   {unit}\n")
        ctx.fill("Author: {dr:resident:sig}   Attending: {dr:attending:sig}\n")
    st = _style(ctx)
    _section(ctx, st, ("Subjective", "S", "Interval events", "Overnight"), "progress_subj", r.randint(1, 3))
    _heading(ctx, r.choice(("Objective", "O", "Exam")), st)
    ctx.fill("{vitals}")
    ctx.b.nl()
    ctx.picks("exam", r.randint(3, 7), sep="\n")
    if r.random() < 0.6:
        ctx.b.nl()
        _lab_table(ctx)
    _section(ctx, st, ("Assessment/Plan", "A/P", "Plan"), "ap", r.randint(4, 8), bullets=True)
    _signature(ctx)


def icu_nursing(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill(r.choice(("{unit} nursing note {date:note:md} {time}\n", "rn note 0700-1900 {rdate:0}\n", "nsg note: {time}-{time}\n",
                       "micu rn progress {date:note:mdy}\n")))
    if r.random() < 0.5:
        ctx.fill("pt {pt:header}, {age:sex}, mrn {id:MEDICALRECORD}\n")
    for key in ("icu_neuro", "icu_cv", "icu_resp", "icu_gi_gu", "icu_skin_lines", "icu_social", "icu_plan"):
        if r.random() < 0.85:
            ctx.pick(key)
            b.nl()
    ctx.fill(r.choice(("{dr:nurse:first} {dr:nurse:last} rn\n", "- {dr:nurse:initials}, rn\n", "{dr:nurse:lfm} rn {time}\n", "signed {dr:nurse:full}, {dr:nurse:sig}\n")))


def telephone(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill(r.choice(("Telephone Encounter\n", "TELEPHONE ENCOUNTER - {clinicname}\n", "Phone note\n", "Call Documentation\n")))
    ctx.fill(r.choice(("{pt:header}  MRN: {id:MEDICALRECORD}  DOB {date:dob:full}\n", "Patient: {pt:header} ({age:num}{sexl})  {id:MEDICALRECORD}\n",
                       "Pt: {pt:header}\n")))
    ctx.fill("Date/time: {date:note:full} {time}\n" if r.random() < 0.7 else "{date:note:any}  {time}\n")
    ctx.fill(r.choice(("Caller: {~patient|{rel} ({relword})|pharmacy}\n", "Call from: {~pt|{relword} {rel}}  Callback: {phone:callback}\n", "")))
    b.nl()
    ctx.picks("phone_body", r.randint(1, 3), sep=r.choice((" ", "\n")))
    b.nl(2)
    ctx.picks("phone_plan", r.randint(1, 2), sep="\n")
    b.nl()
    ctx.fill(r.choice(("{dr:nurse:sig}\n", "-- {dr:nurse:full} RN, {time}\n", "Documented by {dr:np:sig}\n", "{dr:nurse:first} (ext {ext})\n")))


def portal_message(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill(r.choice(("Patient Message\nFrom: {pt:full}\nTo: {dr:pcp:full}\nSent: {date:note:full} {time}\nSubject: {cc}\n\n",
                       "MyChart message - {date:note:any}\nFrom: {pt:full} <{email}>\n\n", "Portal msg rec'd {date:note:md} {time}\n\n",
                       "Subject: question about {med}\nFrom: {pt:header}\n\n")))
    ctx.pick("portal_greeting")
    b.nl()
    lower = r.random() < 0.4
    b.lower = lower
    ctx.picks("portal_body", r.randint(2, 4), sep=r.choice((" ", "\n", "  ")))
    b.nl(2)
    ctx.pick("portal_close")
    b.lower = False
    b.nl(2)
    if r.random() < 0.7:
        b.text("-----\n", noisy=False)
        ctx.pick("portal_reply")
        b.nl()


def radiology(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill(r.choice(("{hosp:caps}\nDEPARTMENT OF RADIOLOGY\n", "{hosp:name} - Diagnostic Imaging\n", "RADIOLOGY REPORT\n", "{hosp:abbrev} Imaging Services\n")))
    ctx.fill(r.choice(("PATIENT: {pt:header}    MRN: {id:MEDICALRECORD}    DOB: {date:dob:full}\n", "Name: {pt:header}  Unit #{id:MEDICALRECORD}  Age {age:num}\n",
                       "{pt:header} / {id:MEDICALRECORD} / {sexl} / {date:dob:mdY}\n")))
    ctx.fill(r.choice(("EXAM: {~CT HEAD W/O CONTRAST|XR CHEST 2 VIEWS|CT A/P WITH CONTRAST|MRI L-SPINE|US RENAL|XR L HIP 2V|CTA CHEST PE PROTOCOL}\n",
                       "Exam: {~CXR PA/Lat|CT abd/pelvis|MRI brain w/wo|Venous duplex BLE|Mammogram bilateral screening}\n")))
    ctx.fill("{idtrig:IDNUM} {newid:IDNUM}    " + r.choice(("Date of exam: ", "DOS: ", "Exam date: ")) + "{date:note:full} {time}\n")
    ctx.fill("Ordering: {dr:referring:sig}" + r.choice(("\n", " ({spec})\n", " - pager {pager}\n")))
    _heading(ctx, "Clinical indication", r.choice(("CAPS:", "Title:")))
    ctx.pick("rad_indication")
    _heading(ctx, "Comparison", "CAPS:")
    ctx.fill(r.choice(("{date:prior_admit:any}.", "None.", "CT {date:prior_admit:full} from {ohosp}.", "Prior from {date:last_visit:partial}.")))
    _heading(ctx, "Technique", "CAPS:")
    b.text(r.choice(("Standard protocol.", "Axial images without contrast with coronal reformats.", "PA and lateral views.", "Grayscale and Doppler images.")))
    _section(ctx, "CAPS:", ("Findings",), "rad_findings", r.randint(2, 5), bullets=r.random() < 0.3)
    _section(ctx, "CAPS:", ("Impression",), "rad_impression", r.randint(1, 3), bullets=True)
    b.nl()
    ctx.fill(r.choice(("Attending radiologist: {dr:radiologist:sig}\nSigned {date:note:full} {time}\n",
                       "Dictated by {dr:resident:sig}; I have reviewed the images and agree. {dr:radiologist:sig} {date:note:mdY}\n",
                       "Electronically signed by: {dr:radiologist:LFM} on {date:note:mdY} {time}\nWorkstation: {ip}\n")))


def pathology(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill(r.choice(("SURGICAL PATHOLOGY REPORT\n{hosp:name}, Department of Pathology\n", "{hosp:caps} - PATHOLOGY\n", "Pathology Consultation Report\n")))
    ctx.fill("Accession: {newid:IDNUM}    Patient: {pt:header}    MRN: {id:MEDICALRECORD}\n")
    ctx.fill("Collected: {date:note:full}   Received: {rdate:0:mdY}   Reported: {rdate:2:full}\n")
    ctx.fill("Submitting physician: {dr:surgeon:sig}" + r.choice(("\n", "   cc: {dr:pcp:sig}\n")))
    _heading(ctx, "Clinical history", "CAPS:")
    ctx.fill("{age} {man} with {dx}. {~Mass on imaging.|Screening.|R/O malignancy.}")
    _section(ctx, "CAPS:", ("Final diagnosis", "Diagnosis"), "path_dx", r.randint(1, 2), bullets=True)
    _section(ctx, "CAPS:", ("Gross description",), "path_gross", r.randint(2, 3))
    _section(ctx, "CAPS:", ("Comment", "Note"), "path_extra", r.randint(1, 2))
    b.nl(2)
    ctx.fill("Pathologist: {dr:pathologist:sig}\nElectronically signed {rdate:2:full}\n")


def operative(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    _header(ctx, r.choice(("Operative Note", "OPERATIVE REPORT", "Brief Op Note", "Procedure Note")), extra=(1, 4))
    ctx.fill("Date of surgery: {date:note:full}\n")
    ctx.picks("op_team", r.randint(2, 4), sep="\n")
    st = "CAPS:"
    _heading(ctx, "Preoperative diagnosis", st)
    ctx.fill("{dx}")
    _heading(ctx, "Procedure", st)
    b.text(r.choice(("Laparoscopic cholecystectomy", "Left total hip arthroplasty", "Exploratory laparotomy, sigmoid colectomy", "Dual-chamber pacemaker implantation",
                     "Port-a-Cath placement, right IJ", "ORIF left distal radius", "Right carotid endarterectomy")))
    _section(ctx, st, ("Description of procedure", "Details"), "op_procedure", r.randint(4, 8), bullets=False)
    _heading(ctx, "Disposition", st)
    ctx.fill("PACU then {~floor|{unit}|home}. Findings discussed with {relword} {rel}.")
    _signature(ctx)


def psych_sw(ctx: NoteContext) -> None:
    r = ctx.rng
    kind = r.choice(("Psychiatry Consult", "Psychiatric Evaluation", "Social Work Note", "SW Psychosocial Assessment", "Behavioral Health Intake"))
    _header(ctx, kind, extra=(2, 6))
    st = _style(ctx)
    _heading(ctx, r.choice(("Identifying data", "Reason for consult", "ID/CC")), st)
    ctx.pick("intro")
    key = "sw_body" if "Social" in kind or "SW" in kind else "psych_body"
    _section(ctx, st, ("History", "Assessment", "Psychosocial history"), key, r.randint(3, 6), bullets=r.random() < 0.3)
    _section(ctx, st, ("Social History", "Supports"), "social", r.randint(1, 2))
    if key == "psych_body":
        _heading(ctx, "Mental status exam", st)
        ctx.fill("Appearance: disheveled. Speech: normal rate. Mood: \"down\". Affect: constricted. TP: linear. SI/HI: denies. Insight/judgment: fair. {score}.")
    _section(ctx, st, ("Plan", "Recommendations"), "ap", r.randint(2, 4), bullets=True)
    ctx.b.nl()
    ctx.fill(r.choice(("{dr:sw:sig}\nPager {pager}\n", "{dr:psychiatrist:sig}\n", "Seen with {dr:psychiatrist:dr_full}. {dr:resident:sig}\n")))


def consult_letter(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill("{hosp:name}\n{~Department of |Division of |}{spec}\n{street}\n{city}, {state} {zip}\nTel {phone:clinic}   Fax {fax}\n\n")
    ctx.fill("{date:note:long}\n\n")
    ctx.fill("{dr:referring:dr_full}\n{ohosp}\n")
    ctx.fill(r.choice(("{num:100} {~Main|Elm|Harbor|Center} Street\n", "")))
    ctx.fill("{city2}, {state2} {zip}\n\n" if r.random() < 0.6 else "\n")
    ctx.fill("RE: {pt:full}   DOB: {date:dob:full}   MRN: {id:MEDICALRECORD}\n\n")
    ctx.pick("letter_open")
    b.nl(2)
    sep = r.choice((" ", "\n\n"))
    ctx.pick("letter_intro")
    b.text(sep, noisy=False)
    ctx.picks("letter_body", r.randint(3, 6), sep=sep)
    b.nl(2)
    ctx.pick("letter_close")
    b.nl(2)
    ctx.pick("cc_list")
    b.nl()


def discharge_instructions(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill(r.choice(("Discharge Instructions for {pt:full}\n", "PATIENT DISCHARGE INSTRUCTIONS\n{hosp:name}\nName: {pt:header}\n", "After Visit Summary - {pt:full}\n")))
    ctx.fill("Date: {date:note:long}\n\n")
    ctx.picks("dcinstr_body", r.randint(4, 8), sep=r.choice(("\n", "\n\n", " ")))
    b.nl(2)
    b.text("Your medications:\n", noisy=False)
    _med_list(ctx, r.randint(2, 6))
    ctx.fill("\nQuestions? Call {hosp:short} at {phone:clinic} or visit {url}.\n")


def clinic_note(ctx: NoteContext) -> None:
    r = ctx.rng
    _header(ctx, r.choice(("Clinic Note", "Outpatient Visit", "Office Visit", "Follow-up Visit", "Annual Physical")), extra=(2, 6), with_hosp=0.4)
    st = _style(ctx)
    _heading(ctx, r.choice(("Reason for visit", "CC", "Subjective")), st)
    ctx.pick("intro")
    ctx.b.text(" ")
    ctx.picks("hpi", r.randint(2, 4))
    ctx.b.text(" ")
    ctx.picks("hpi_plain", r.randint(2, 4))
    _heading(ctx, "Medications", st)
    ctx.b.nl()
    _med_list(ctx, r.randint(2, 7))
    _section(ctx, st, ("Social", "SH"), "social", r.randint(1, 2))
    _heading(ctx, r.choice(("Exam", "PE")), st)
    ctx.fill("{vitals}")
    ctx.b.nl()
    ctx.picks("exam", r.randint(3, 7), sep="\n")
    _section(ctx, st, ("A/P", "Assessment and Plan", "Plan"), "ap", r.randint(3, 7), bullets=True)
    ctx.fill("\nRTC {dur}" + r.choice((" or sooner PRN.", " ({date:next_appt:any}).", ".")))
    _signature(ctx)


def nursing_home_transfer(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill(r.choice(("INTERFACILITY TRANSFER FORM\n", "Nursing Home Transfer Summary\n", "{snf} - Transfer/Referral Record\n")))
    ctx.fill("Resident: {pt:header}   DOB {date:dob:full}   Room {room}\n")
    ctx.fill("Transfer date: {date:note:full} {time}\n")
    ctx.picks("transfer_body", r.randint(4, 7), sep="\n")
    b.nl(2)
    b.text("Current medications:\n", noisy=False)
    _med_list(ctx, r.randint(3, 8))
    ctx.fill("\nCompleted by: {dr:nurse:sig}   Phone {phone:clinic}  Fax {fax}\n")


def referral(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill(r.choice(("REFERRAL REQUEST\n", "Outpatient Referral - {spec}\n", "Referral Form\nTo: {clinicname}\n")))
    ctx.fill("Patient: {pt:header}   DOB: {date:dob:mdY}   Phone: {phone:home}\nAddress: {street}, {city}, {state} {zip}\n")
    ctx.fill("Date: {date:note:full}\n\n")
    ctx.picks("referral_body", r.randint(3, 6), sep="\n")
    b.nl(2)
    ctx.fill("{dr:referring:sig}\n")


def lab_report(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill(r.choice(("{hosp:caps} CLINICAL LABORATORY\n", "LABORATORY REPORT\n", "{hosp:name} Lab Results\n")))
    ctx.fill("Patient: {pt:header}    MRN: {id:MEDICALRECORD}    DOB: {date:dob:full}    Sex: {sexl}\n")
    ctx.fill("Ordering: {dr:attending:lfm}    Location: {unit}    Acct: {id:ACCOUNT}\n")
    ctx.fill("Collected: {date:note:full} {time}    Accession: {newid:IDNUM}\n\n")
    for _ in range(r.randint(6, 14)):
        ctx.fill(r.choice(("{labs}\n", "  {labs}\n")))
    b.nl()
    ctx.picks("lab_comment", r.randint(1, 3), sep="\n")
    b.nl()


def ed_trauma_brief(ctx: NoteContext) -> None:
    r, b = ctx.rng, ctx.b
    ctx.fill(r.choice(("TRAUMA FLOW SHEET  {date:note:mdY} {time}\n", "Code Stroke Note\n", "Rapid Response Note - {unit}\n")))
    ctx.fill("{pt:header}  {age:sex}  {id:MEDICALRECORD}\n")
    ctx.pick("ed_triage")
    b.nl()
    ctx.picks("ed_course", r.randint(2, 4), sep="\n")
    b.nl()
    ctx.fill("{vitals}\n{score}; {abg}\n")
    ctx.pick("ed_dispo")
    b.nl()
    ctx.fill("{dr:attending:sig} / {dr:resident:sig}\n")


def device_clinic(ctx: NoteContext) -> None:
    """Device / biometric / vehicle-heavy encounter: interrogation, security and transport records."""
    r = ctx.rng
    ctx.fill(r.choice(("Device Clinic Interrogation\n", "Remote Monitoring Transmission\n", "Pump Check\n")))
    ctx.fill("{pt:header}   MRN {id:MEDICALRECORD}   {date:note:full}\n")
    ctx.fill("Device: {brand}   {idtrig:DEVICE} {id:DEVICE}   Implanted {date:prior_surgery:any} by {dr:surgeon:dr_full}\n")
    ctx.fill(r.choice(("Enrolled in palm-vein check-in; {idtrig:BIOID} {id:BIOID}.\n", "Biometric check-in token {id:BIOID} verified at kiosk.\n", "")))
    ctx.fill("Battery {num:2}%; lead impedance {num:100} ohms; {score}. Transmission from IP {ip}.\n")
    ctx.fill(r.choice(("Parking validated for vehicle {id:VEHICLE}.\n", "Driver's license {id:LICENSE} scanned at registration.\n", "")))
    ctx.fill("Next check {date:next_appt:any}. {dr:np:sig}\n")


#: name -> (composer, relative weight, style). style keys: lower, caps, wrap.
NOTE_TYPES: dict[str, tuple[Composer, float, str]] = {
    "ed": (ed_note, 8, "wrap"),
    "discharge_summary": (discharge_summary, 8, "wrap"),
    "hp": (hp_note, 6, "wrap"),
    "progress": (progress_note, 7, ""),
    "icu_nursing": (icu_nursing, 5, "lower"),
    "telephone": (telephone, 6, ""),
    "portal": (portal_message, 5, ""),
    "radiology": (radiology, 6, "caps"),
    "pathology": (pathology, 4, "caps"),
    "operative": (operative, 4, "wrap"),
    "psych_sw": (psych_sw, 5, "wrap"),
    "consult_letter": (consult_letter, 5, ""),
    "discharge_instructions": (discharge_instructions, 4, ""),
    "clinic": (clinic_note, 7, "wrap"),
    "nursing_home_transfer": (nursing_home_transfer, 3, ""),
    "referral": (referral, 3, ""),
    "lab_report": (lab_report, 3, "caps"),
    "trauma_code": (ed_trauma_brief, 3, ""),
    "device_clinic": (device_clinic, 2, ""),
}
