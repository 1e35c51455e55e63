"""Deterministic generator of a Spanish corpus of Markdown reports in the course's "rag6" format.

The corpus is the demo and test data of the text half (chunking, BM25, retrieval evaluation):

* ``rag6_documentos.parquet``: annual reports of six issuers for 2022 and 2023 (one shared template),
  prospectuses and key information documents (KID) of five ETFs of one manager, research notes;
* ``rag6_pasajes.parquet``: the reference passages, one per blank-line separated block (:func:`segment`);
* ``rag6_preguntas.csv``: questions with gold answers and gold passages, of six kinds, including
  comparisons across documents and questions the corpus cannot answer.

The same seed always gives identical frames.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

import numpy as np
import pandas as pd

from factstore.text.markdown import segment

__all__ = [
    "BROKER",
    "DOCUMENT_KINDS",
    "FUNDS",
    "ISSUERS",
    "MANAGER",
    "PASSAGE_KINDS",
    "QUESTION_KINDS",
    "ReportCorpus",
    "generate_reports",
    "write_report_files",
]

DOCUMENTS_FILE = "rag6_documentos.parquet"
PASSAGES_FILE = "rag6_pasajes.parquet"
QUESTIONS_FILE = "rag6_preguntas.csv"

PASSAGE_KINDS = ("titulo", "texto", "lista", "tabla", "nota")
DOCUMENT_KINDS = ("informe_anual", "folleto", "kid", "nota_analisis")
QUESTION_KINDS = ("dato", "tabla", "nota", "lista", "comparacion", "no_respondible")
UNANSWERABLE = "No consta en los documentos disponibles."
MANAGER = "Gestora Atalaya"
BROKER = "Mirador Valores"
YEARS = (2022, 2023)

_STR = pd.StringDtype("pyarrow", na_value=np.nan)
_MONTHS = (
    "enero", "febrero", "marzo", "abril", "mayo", "junio",
    "julio", "agosto", "septiembre", "octubre", "noviembre", "diciembre",
)  # fmt: skip


# --------------------------------------------------------------------------- public API


@dataclass(frozen=True, eq=False)
class ReportCorpus:
    """The three rag6 tables, in memory."""

    documents: pd.DataFrame
    passages: pd.DataFrame
    questions: pd.DataFrame

    def write(self, out_dir: str | Path) -> dict[str, Path]:
        """Write the rag6 files into ``out_dir``; return their paths."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        paths = {
            "documents": out / DOCUMENTS_FILE,
            "passages": out / PASSAGES_FILE,
            "questions": out / QUESTIONS_FILE,
        }
        self.documents.to_parquet(paths["documents"], index=False)
        self.passages.to_parquet(paths["passages"], index=False)
        self.questions.to_csv(paths["questions"], index=False, lineterminator="\n")
        return paths


def write_report_files(out_dir: str | Path, **kwargs) -> dict[str, Path]:
    """Generate the corpus (``kwargs`` as for :func:`generate_reports`) and write it into ``out_dir``."""
    return generate_reports(**kwargs).write(out_dir)


def generate_reports(seed: int = 7) -> ReportCorpus:
    """Generate the documents, their reference passages and the evaluation questions."""
    if seed < 0:
        raise ValueError("seed must be >= 0")
    rng = np.random.default_rng(seed)
    docs: list[_Doc] = []
    questions: list[_Question] = []

    def new_doc(titulo: str, tipo: str) -> _Doc:
        doc = _Doc(f"R{len(docs) + 1:03d}", titulo, tipo)
        docs.append(doc)
        return doc

    figures = {issuer.name: _issuer_figures(issuer, rng) for issuer in ISSUERS}
    reports = {
        (issuer.name, year): _annual_report(new_doc, issuer, year, figures[issuer.name], rng)
        for issuer in ISSUERS
        for year in YEARS
    }
    fund_data = {fund.name: _fund_figures(fund, rng) for fund in FUNDS}
    prospectuses = {fund.name: _prospectus(new_doc, fund, fund_data[fund.name], rng) for fund in FUNDS}
    kids = {
        (fund.name, year): _kid(new_doc, fund, year, fund_data[fund.name], rng)
        for fund in FUNDS
        for year in (2023, 2024)
    }
    covered = [issuer for issuer in ISSUERS if issuer.covered]
    research = {
        (issuer.name, year): _research_note(new_doc, issuer, year, figures[issuer.name], rng)
        for issuer in covered
        for year in (2023, 2024)
    }
    corpus = _Corpus(reports, prospectuses, kids, research, figures, fund_data)
    for issuer in ISSUERS:
        for year in YEARS:
            questions += _report_questions(corpus, issuer, year, rng)
    for fund in FUNDS:
        questions += _fund_questions(corpus, fund, rng)
    for issuer in covered:
        for year in (2023, 2024):
            questions += _research_questions(corpus, issuer, year, rng)
    questions += _comparisons(corpus, rng)
    questions += _unanswerable(corpus, rng)
    unique: dict[str, _Question] = {}
    for question in questions:  # a prior-year figure can be asked from two reports
        unique.setdefault(question.pregunta, question)
    questions = list(unique.values())
    order = rng.permutation(len(questions))
    return ReportCorpus(_documents_frame(docs), _passages_frame(docs), _questions_frame([questions[i] for i in order]))


# --------------------------------------------------------------------------- documents


@dataclass
class _Doc:
    """A document under construction: its blocks (one passage each) and named blocks (tags)."""

    id_doc: str
    titulo: str
    tipo: str
    blocks: list[str] = field(default_factory=list)
    tags: dict[str, int] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    def add(self, *blocks: str, tag: str | None = None) -> None:
        """Append blocks; ``tag`` names the first of them."""
        if tag is not None:
            self.tags[tag] = len(self.blocks)
        self.blocks.extend(blocks)

    def heading(self, level: int, text: str) -> None:
        self.add(f"{'#' * level} {text}")

    def pid(self, tag: str) -> str:
        return f"{self.id_doc}-P{self.tags[tag] + 1:04d}"

    @property
    def texto(self) -> str:
        return "\n\n".join(self.blocks) + "\n"


NewDoc = Callable[[str, str], _Doc]


@dataclass(frozen=True)
class _Question:
    tipo: str
    pregunta: str
    respuesta: str
    refs: tuple[tuple[_Doc, str], ...] = ()
    docs: tuple[_Doc, ...] = ()

    @property
    def id_docs(self) -> list[str]:
        ids = [doc.id_doc for doc in self.docs] + [doc.id_doc for doc, _ in self.refs]
        return list(dict.fromkeys(ids))


@dataclass(frozen=True)
class _Corpus:
    reports: dict[tuple[str, int], _Doc]
    prospectuses: dict[str, _Doc]
    kids: dict[tuple[str, int], _Doc]
    research: dict[tuple[str, int], _Doc]
    figures: dict[str, dict[int, dict[str, float]]]
    funds: dict[str, dict[str, float]]


def _documents_frame(docs: list[_Doc]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "id_doc": pd.Series([d.id_doc for d in docs], dtype=_STR),
            "titulo": pd.Series([d.titulo for d in docs], dtype=_STR),
            "tipo": pd.Series([d.tipo for d in docs], dtype=_STR),
            "texto": pd.Series([d.texto for d in docs], dtype=_STR),
        }
    )


def _passages_frame(docs: list[_Doc]) -> pd.DataFrame:
    rows = []
    for doc in docs:
        texto = doc.texto
        blocks = segment(texto)
        assert len(blocks) == len(doc.blocks), f"{doc.id_doc}: a block does not segment cleanly"
        seccion = doc.titulo
        for k, (start, end, tipo) in enumerate(blocks):
            if tipo == "titulo" and texto.startswith("##", start):
                seccion = texto[start:end].lstrip("#").strip()
            rows.append((f"{doc.id_doc}-P{k + 1:04d}", doc.id_doc, seccion, tipo, start, end))
    frame = pd.DataFrame(rows, columns=["id_pasaje", "id_doc", "seccion", "tipo", "inicio", "fin"])
    types = {c: _STR for c in ("id_pasaje", "id_doc", "seccion", "tipo")}
    return frame.astype(types | {"inicio": "int64", "fin": "int64"})


def _questions_frame(questions: list[_Question]) -> pd.DataFrame:
    frame = pd.DataFrame(
        {
            "id_pregunta": [f"Q{i + 1:03d}" for i in range(len(questions))],
            "id_doc": [";".join(q.id_docs) for q in questions],
            "pregunta": [q.pregunta for q in questions],
            "respuesta_oro": [q.respuesta for q in questions],
            "pasajes_oro": [";".join(dict.fromkeys(doc.pid(tag) for doc, tag in q.refs)) for q in questions],
            "tipo_pregunta": [q.tipo for q in questions],
            "respondible": [q.tipo != "no_respondible" for q in questions],
        }
    )
    return frame.astype({c: _STR for c in frame.columns if c != "respondible"})


# --------------------------------------------------------------------------- formatting


def _es(value: float, decimals: int = 1) -> str:
    """Spanish number format: 1.234,5."""
    return f"{value:,.{decimals}f}".replace(",", "_").replace(".", ",").replace("_", ".")


def _signed(value: float, decimals: int = 1) -> str:
    return ("+" if value >= 0 else "-") + _es(abs(value), decimals)


def _pct(value: float, decimals: int = 1) -> str:
    return f"{_es(value, decimals)} %"


def _fecha(day: date) -> str:
    return f"{day.day} de {_MONTHS[day.month - 1]} de {day.year}"


def _pick(rng: np.random.Generator, options: Sequence):
    return options[int(rng.integers(len(options)))]


def _choose(rng: np.random.Generator, options: Sequence, k: int) -> list:
    """``k`` distinct options, in their original order."""
    return [options[i] for i in sorted(rng.choice(len(options), size=k, replace=False))]


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], align: str) -> str:
    """A Markdown table; ``align`` has one character per column, "l" or "r"."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(" --- " if a == "l" else " ---: " for a in align) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _bullets(items: Sequence[tuple[str, str]], numbered: bool = False) -> str:
    return "\n".join(
        f"{f'{i}. ' if numbered else '- '}**{label}**: {text}." for i, (label, text) in enumerate(items, 1)
    )


def _names(items: Sequence[tuple[str, str]]) -> str:
    return "; ".join(label for label, _ in items)


# --------------------------------------------------------------------------- issuers


@dataclass(frozen=True)
class _Issuer:
    name: str
    activity: str
    city: str
    president: str
    president_title: str
    ceo: str
    revenue: float  # 2021, M€
    margin: float
    capex_ratio: float
    leverage: float
    shares: float  # millions
    staff: int
    segments: tuple[str, str, str]
    metric_text: str  # a sentence with {v}
    metric_unit: str
    metric_base: float
    metric_growth: tuple[float, float]
    metric_decimals: int
    metric_questions: tuple[str, ...]
    sector_row: tuple[str, str, float, float]  # label, unit, ratio range to revenue (or to the metric)
    sector_questions: tuple[str, ...]
    adjustments: tuple[str, ...]
    debt_extra: str  # with {b}
    risks: tuple[tuple[str, str], ...]
    priorities: tuple[tuple[str, str], ...]
    highlights: tuple[str, ...]
    initiative: str
    covered: bool
    sector: str = ""
    arguments: tuple[tuple[str, str], ...] = ()


ISSUERS: tuple[_Issuer, ...] = (
    _Issuer(
        name="Busmar Hogar",
        activity="una cadena de tiendas de muebles, decoración y menaje para el hogar con presencia en España y "
        "Portugal",
        city="Valencia",
        president="Elena Busquets Marín",
        president_title="presidenta",
        ceo="Jorge Alcaraz Peña",
        revenue=1450.0, margin=0.125, capex_ratio=0.045, leverage=1.6, shares=84.0, staff=7900,
        segments=("Muebles", "Decoración y textil", "Menaje y cocina"),
        metric_text="Al cierre del ejercicio la red comercial sumaba {v} tiendas, entre establecimientos propios y "
        "franquiciados, con una superficie media de venta cercana a los 2.400 metros cuadrados.",
        metric_unit="tiendas", metric_base=198, metric_growth=(0.03, 0.07), metric_decimals=0,
        metric_questions=(
            "¿Cuántas tiendas tenía {n} al cierre de {y}?",
            "¿Con cuántos establecimientos terminó {n} el ejercicio {y}?",
            "¿De cuántas tiendas constaba la red comercial de {n} a final de {y}?",
        ),
        sector_row=("Ventas en línea (M€)", "rev", 0.13, 0.19),
        sector_questions=("¿Cuánto vendió {n} a través de internet en {y}?",
                          "¿Qué ventas en línea registró {n} en {y}?"),
        adjustments=("el cierre de tiendas no rentables", "la puesta en marcha de la plataforma logística de Riba-roja",
                     "indemnizaciones por la reorganización de la sede central"),
        debt_extra="y pagarés emitidos en el MARF por {b} M€",
        risks=(
            ("Debilidad del consumo", "una caída de la renta disponible de los hogares reduciría la demanda de "
             "mobiliario, una compra que las familias pueden aplazar"),
            ("Coste de los fletes marítimos", "buena parte del surtido se fabrica en Asia y un encarecimiento del "
             "transporte en contenedor presionaría el margen bruto"),
            ("Dependencia de proveedores asiáticos", "una parte relevante de las compras procede de fabricantes de "
             "China, Vietnam e India, lo que expone al grupo a retrasos y a tensiones comerciales"),
            ("Competencia del comercio electrónico", "los grandes operadores en línea compiten en precio y en plazo "
             "de entrega en las categorías de decoración y menaje"),
            ("Tipo de cambio euro-dólar", "las compras se pagan mayoritariamente en dólares, de modo que una "
             "depreciación del euro encarece el aprovisionamiento"),
            ("Ciberseguridad", "un ataque a los sistemas de tienda o a la plataforma en línea podría interrumpir las "
             "ventas y exponer datos de clientes"),
            ("Ciclo inmobiliario", "la demanda de muebles está ligada a las compraventas de vivienda, que se resienten "
             "cuando suben los tipos de interés"),
        ),
        priorities=(
            ("Expansión selectiva", "abrir tiendas de formato medio en ciudades de más de 50.000 habitantes"),
            ("Canal en línea", "integrar el inventario de tienda y de almacén para entregar en 48 horas"),
            ("Marca propia", "elevar el peso de las colecciones diseñadas por el equipo de producto"),
            ("Eficiencia logística", "concentrar la distribución peninsular en dos plataformas automatizadas"),
            ("Experiencia de cliente", "renovar el mobiliario expositivo y los servicios de montaje a domicilio"),
            ("Economía circular", "ampliar la recogida y el reacondicionamiento de muebles usados"),
        ),
        highlights=(
            "la apertura de la primera tienda en Oporto", "el lanzamiento de la colección de cocinas a medida",
            "la renovación de la aplicación móvil, que ya concentra la mitad del tráfico digital",
            "la firma de un acuerdo con una cadena de interiorismo para el canal profesional",
        ),
        initiative="El programa Segunda Vida recogió muebles usados de los clientes para su reparación y reventa",
        covered=True,
        sector="Distribución especializada",
        arguments=(
            ("Liderazgo en precio", "su escala de compras le permite mantener precios por debajo de la competencia "
             "sin renunciar a margen"),
            ("Palanca digital", "las ventas en línea crecen a doble dígito y mejoran la rotación de inventario"),
            ("Balance saneado", "el apalancamiento es moderado y deja margen para abrir tiendas con recursos propios"),
            ("Retribución al accionista", "la política de reparto de la mitad del beneficio ofrece una rentabilidad "
             "por dividendo atractiva"),
            ("Opcionalidad en Portugal", "la expansión en el país vecino apenas está reflejada en la cotización"),
            ("Mejora de márgenes", "la normalización de los fletes debería devolver el margen bruto a niveles "
             "previos a la pandemia"),
        ),
    ),
    _Issuer(
        name="Rapsa",
        activity="un fabricante de envases metálicos y plásticos para la industria alimentaria y de bebidas",
        city="Zaragoza",
        president="Ramón Aparicio Sáez",
        president_title="presidente",
        ceo="Lucía Ferrer Oliva",
        revenue=820.0, margin=0.15, capex_ratio=0.06, leverage=2.1, shares=46.0, staff=3100,
        segments=("Envases metálicos", "Envases plásticos", "Tapones y cierres"),
        metric_text="Las doce plantas del grupo produjeron {v} toneladas de envases, con una tasa de utilización "
        "media de la capacidad instalada superior al 80 %.",
        metric_unit="toneladas", metric_base=312000, metric_growth=(-0.03, 0.06), metric_decimals=0,
        metric_questions=(
            "¿Cuántas toneladas de envases produjo {n} en {y}?",
            "¿Qué volumen de producción, en toneladas, alcanzó {n} en {y}?",
        ),
        sector_row=("Cartera de pedidos (M€)", "rev", 0.28, 0.38),
        sector_questions=("¿Qué cartera de pedidos tenía {n} al cierre de {y}?",
                          "¿A cuánto ascendía la cartera de pedidos de {n} a final de {y}?"),
        adjustments=("el cierre de la línea de hojalata de Alcalá de Henares", "la adquisición de una planta "
                     "de tapones en Oporto", "la renegociación del convenio colectivo"),
        debt_extra="y excluye {b} M€ de anticipos de clientes por factoring sin recurso",
        risks=(
            ("Precio del aluminio y la hojalata", "las materias primas metálicas suponen más de la mitad del coste "
             "de ventas y su traslado a precios se produce con retraso"),
            ("Coste de la energía", "los hornos de barnizado y las líneas de soplado son intensivos en gas y "
             "electricidad"),
            ("Concentración de clientes", "los diez primeros clientes, grupos de alimentación y bebidas, concentran "
             "buena parte de las ventas"),
            ("Regulación de plásticos de un solo uso", "el impuesto especial sobre envases de plástico no "
             "reutilizables y la normativa europea pueden reducir la demanda"),
            ("Interrupciones de suministro", "la dependencia de pocos laminadores europeos expone la producción a "
             "paradas no previstas"),
            ("Tipos de interés", "una parte de la deuda está referenciada al euríbor"),
            ("Seguridad alimentaria", "una contaminación de envases podría obligar a retiradas de producto y a "
             "indemnizar a los clientes"),
        ),
        priorities=(
            ("Aligeramiento de envases", "reducir el peso medio por unidad sin perder resistencia"),
            ("Contenido reciclado", "superar el 40 % de material reciclado en envases plásticos"),
            ("Disciplina de precios", "extender las cláusulas de revisión automática por coste de metal"),
            ("Eficiencia energética", "instalar cogeneración y autoconsumo fotovoltaico en cuatro plantas"),
            ("Integración de cierres", "completar la integración industrial del negocio de tapones"),
            ("Desapalancamiento", "destinar la caja libre a amortizar deuda bancaria"),
        ),
        highlights=(
            "la entrada en funcionamiento de una nueva línea de latas de bebidas en Zaragoza",
            "la adquisición de una planta de tapones en Oporto",
            "la homologación de envases con un 50 % de plástico reciclado por un gran cliente lácteo",
            "la firma de un contrato plurianual de suministro de aluminio",
        ),
        initiative="La compañía firmó un contrato de compra de energía renovable a largo plazo para sus plantas",
        covered=True,
        sector="Envases y embalajes",
        arguments=(
            ("Demanda defensiva", "la alimentación y las bebidas envasadas son poco sensibles al ciclo"),
            ("Traslado de costes", "las cláusulas de revisión de precios protegen el margen frente al metal"),
            ("Sostenibilidad como ventaja", "la lata de aluminio gana cuota frente al plástico por su reciclabilidad"),
            ("Consolidación sectorial", "su tamaño la convierte en candidata a participar en operaciones "
             "corporativas"),
            ("Generación de caja", "la reducción de inversiones tras el ciclo de ampliaciones libera caja"),
            ("Valoración exigente del sector", "cotiza con descuento frente a sus comparables europeos"),
        ),
    ),
    _Issuer(
        name="Cervecera Olmo",
        activity="un grupo cervecero familiar que elabora y comercializa cerveza, bebidas sin alcohol y aguas",
        city="Valladolid",
        president="Ignacio Olmo Villar",
        president_title="presidente",
        ceo="Marta Quintana Ruiz",
        revenue=640.0, margin=0.22, capex_ratio=0.07, leverage=1.3, shares=38.0, staff=1450,
        segments=("Cerveza en España", "Exportación", "Bebidas sin alcohol y aguas"),
        metric_text="El grupo vendió {v} millones de hectolitros, con un peso creciente de las referencias "
        "sin alcohol y de las cervezas especiales.",
        metric_unit="millones de hectolitros", metric_base=4.05, metric_growth=(-0.02, 0.05), metric_decimals=2,
        metric_questions=(
            "¿Cuántos hectolitros vendió {n} en {y}?",
            "¿Qué volumen de ventas, en hectolitros, tuvo {n} en el ejercicio {y}?",
        ),
        sector_row=("Ventas de exportación (M€)", "rev", 0.17, 0.24),
        sector_questions=("¿Cuánto facturó {n} en exportación en {y}?",
                          "¿Qué ventas de exportación registró {n} en {y}?"),
        adjustments=("la reestructuración de la red de distribución en Levante", "el deterioro de envases "
                     "retornables obsoletos", "la integración de una maltería en Palencia"),
        debt_extra="y fianzas de envases retornables por {b} M€",
        risks=(
            ("Precio de la cebada y la malta", "las malas cosechas encarecen la materia prima principal"),
            ("Coste del vidrio y el aluminio", "los envases representan la partida de coste variable más relevante"),
            ("Estacionalidad y meteorología", "un verano frío o lluvioso reduce de forma notable el consumo"),
            ("Concentración de la hostelería", "el canal hostelero depende del turismo y de la confianza del "
             "consumidor"),
            ("Regulación sobre el alcohol", "restricciones a la publicidad o subidas de impuestos especiales "
             "pueden reducir la demanda"),
            ("Disponibilidad de agua", "las sequías pueden limitar la captación en las fábricas"),
            ("Competencia de grandes cerveceras", "los grupos multinacionales tienen mayor capacidad de inversión "
             "en marketing"),
        ),
        priorities=(
            ("Cervezas sin alcohol", "ampliar la gama y la capacidad de desalcoholización"),
            ("Mercados internacionales", "consolidar la presencia en México, Reino Unido y China"),
            ("Eficiencia hídrica", "bajar de 3 litros de agua por litro de cerveza producido"),
            ("Envase retornable", "recuperar cuota del vidrio retornable en hostelería"),
            ("Innovación", "lanzar dos referencias de temporada cada año"),
            ("Digitalización comercial", "dotar a la red de ventas de herramientas de pedido en línea"),
        ),
        highlights=(
            "el lanzamiento de una cerveza tostada sin alcohol", "la ampliación de la fábrica de Valladolid",
            "la entrada en el mercado mexicano con un distribuidor local",
            "la recuperación del consumo en hostelería durante el verano",
        ),
        initiative="La fábrica de Valladolid instaló una planta de biogás que aprovecha el bagazo del proceso",
        covered=True,
        sector="Bebidas",
        arguments=(
            ("Marca con arraigo", "su cuota en Castilla y León y Madrid le da poder de precio"),
            ("Sin alcohol en auge", "es uno de los líderes en un segmento que crece por encima del mercado"),
            ("Recuperación de la hostelería", "el canal de mayor margen vuelve a niveles previos a la pandemia"),
            ("Exportación", "la apertura de nuevos mercados diversifica el riesgo geográfico"),
            ("Control familiar", "la estabilidad accionarial favorece una gestión de largo plazo"),
            ("Caja neta en el horizonte", "la deuda podría quedar amortizada en pocos ejercicios"),
        ),
    ),
    _Issuer(
        name="Naviera Sotavento",
        activity="una compañía de transporte marítimo de pasajeros y carga rodada entre la Península, Canarias y "
        "Baleares",
        city="Las Palmas de Gran Canaria",
        president="Carmen Sotomayor Díaz",
        president_title="presidenta",
        ceo="Andrés Beltrán Mesa",
        revenue=510.0, margin=0.18, capex_ratio=0.12, leverage=2.6, shares=52.0, staff=1980,
        segments=("Pasaje", "Carga rodada", "Servicios portuarios"),
        metric_text="La flota transportó {v} millones de pasajeros, con un índice de ocupación medio cercano al "
        "70 % en las líneas interinsulares.",
        metric_unit="millones de pasajeros", metric_base=2.74, metric_growth=(0.0, 0.08), metric_decimals=2,
        metric_questions=(
            "¿Cuántos pasajeros transportó {n} en {y}?",
            "¿Qué número de viajeros movió la flota de {n} en {y}?",
        ),
        sector_row=("Ingresos de carga rodada (M€)", "rev", 0.30, 0.38),
        sector_questions=("¿Cuánto ingresó {n} por carga rodada en {y}?",
                          "¿Qué ingresos de carga rodada obtuvo {n} en {y}?"),
        adjustments=("la varada extraordinaria del buque Punta Orchilla", "el desguace de dos buques de "
                     "más de 30 años", "la renegociación de los contratos de fletamento"),
        debt_extra="y la financiación de dos buques en construcción por {b} M€",
        risks=(
            ("Precio del combustible", "el combustible marino es el primer coste operativo y su traslado a tarifas "
             "no es inmediato"),
            ("Regulación de emisiones", "la inclusión del transporte marítimo en el régimen europeo de derechos de "
             "emisión eleva los costes"),
            ("Estacionalidad turística", "la demanda de pasaje se concentra en verano y en periodos vacacionales"),
            ("Contratos de servicio público", "parte de las líneas dependen de concursos públicos con tarifas "
             "reguladas"),
            ("Averías de la flota", "la edad media de los buques eleva el riesgo de paradas técnicas"),
            ("Competencia en carga", "nuevos operadores de carga rodada presionan los fletes"),
            ("Meteorología adversa", "los temporales obligan a cancelar escalas"),
        ),
        priorities=(
            ("Renovación de flota", "incorporar dos buques propulsados por gas natural licuado"),
            ("Descarbonización", "conectar los buques a la red eléctrica en puerto"),
            ("Experiencia a bordo", "renovar la restauración y el entretenimiento en los trayectos largos"),
            ("Carga", "ampliar la capacidad para semirremolques entre Huelva y Canarias"),
            ("Digitalización", "implantar la venta de billetes y embarque sin papel"),
            ("Eficiencia", "optimizar las rutas con sistemas de velocidad adaptativa"),
        ),
        highlights=(
            "la entrada en servicio del buque Roque Nublo", "la adjudicación de la línea Huelva–Arrecife",
            "la renovación del contrato de interés público con el Gobierno de Canarias",
            "la reorganización de las escalas de la línea Barcelona–Palma",
        ),
        initiative="Dos buques de la flota se conectaron a la red eléctrica durante sus escalas en Las Palmas",
        covered=True,
        sector="Transporte",
        arguments=(
            ("Posición en Canarias", "es el primer operador de las líneas interinsulares"),
            ("Renovación de flota", "los nuevos buques reducirán el consumo de combustible por milla"),
            ("Ingresos regulados", "los contratos de servicio público aportan visibilidad"),
            ("Crecimiento de la carga", "el comercio con Canarias crece por encima del PIB"),
            ("Tirón turístico", "la ocupación en verano está en máximos históricos"),
            ("Valoración de activos", "el valor de mercado de la flota supera la capitalización bursátil"),
        ),
    ),
    _Issuer(
        name="Farmacias Lucero",
        activity="un distribuidor farmacéutico mayorista que presta servicios a una red de farmacias asociadas en el "
        "sur de España",
        city="Sevilla",
        president="Rocío Lucero Ortega",
        president_title="presidenta",
        ceo="Pablo Medina Garrido",
        revenue=2300.0, margin=0.038, capex_ratio=0.008, leverage=1.1, shares=120.0, staff=2600,
        segments=("Distribución mayorista", "Servicios a farmacias", "Salud digital"),
        metric_text="La red de farmacias asociadas alcanzó las {v} oficinas de farmacia, a las que el grupo sirvió "
        "una media de dos pedidos diarios desde sus nueve almacenes.",
        metric_unit="farmacias", metric_base=1180, metric_growth=(0.01, 0.05), metric_decimals=0,
        metric_questions=(
            "¿Cuántas farmacias asociadas tenía {n} en {y}?",
            "¿A cuántas oficinas de farmacia llegaba la red de {n} en {y}?",
        ),
        sector_row=("Ventas de productos de parafarmacia (M€)", "rev", 0.09, 0.13),
        sector_questions=("¿Cuánto vendió {n} en parafarmacia en {y}?",
                          "¿Qué ventas de parafarmacia registró {n} en {y}?"),
        adjustments=("el cierre del almacén de Jerez de la Frontera", "la migración del sistema de gestión de "
                     "almacenes", "la fusión con una cooperativa de Córdoba"),
        debt_extra="y deuda con proveedores con pago confirmado por {b} M€",
        risks=(
            ("Regulación de precios de los medicamentos", "las rebajas de precios de referencia reducen el margen de "
             "distribución"),
            ("Concentración de laboratorios", "unos pocos laboratorios concentran buena parte de las compras"),
            ("Morosidad de las farmacias", "las farmacias asociadas disfrutan de aplazamientos de pago"),
            ("Competencia de la venta directa", "algunos laboratorios sirven directamente a las farmacias"),
            ("Continuidad logística", "una parada de un almacén automatizado afectaría al servicio en su zona"),
            ("Ciberseguridad", "el sistema de pedidos en línea es crítico para las farmacias"),
            ("Escasez de medicamentos", "los desabastecimientos internacionales afectan a la disponibilidad"),
        ),
        priorities=(
            ("Automatización de almacenes", "robotizar la preparación de pedidos en Sevilla y Málaga"),
            ("Servicios a la farmacia", "ampliar la oferta de formación y asesoría a los titulares"),
            ("Salud digital", "extender la receta electrónica y la plataforma de venta en línea de parafarmacia"),
            ("Crecimiento orgánico", "incorporar farmacias en Extremadura y Murcia"),
            ("Sostenibilidad logística", "electrificar la flota de reparto urbano"),
            ("Capital circulante", "reducir los plazos de cobro a las farmacias"),
        ),
        highlights=(
            "la inauguración del almacén automatizado de Dos Hermanas", "la fusión con una cooperativa de Córdoba",
            "el lanzamiento de la plataforma de parafarmacia en línea",
            "la ampliación del servicio de reparto urbano con vehículos eléctricos",
        ),
        initiative="El grupo incorporó furgonetas eléctricas al reparto urbano en Sevilla y Málaga",
        covered=False,
    ),
    _Issuer(
        name="Eólica del Cierzo",
        activity="un productor independiente de electricidad de origen eólico con parques en Aragón, Navarra y "
        "Portugal",
        city="Pamplona",
        president="Javier Ezquerra Lasheras",
        president_title="presidente",
        ceo="Nuria Gállego Bielsa",
        revenue=380.0, margin=0.70, capex_ratio=0.55, leverage=4.2, shares=60.0, staff=420,
        segments=("Generación en España", "Generación en Portugal", "Operación y mantenimiento para terceros"),
        metric_text="La capacidad instalada alcanzó {v} MW al cierre del ejercicio, tras la conexión de nuevos "
        "parques en el valle del Ebro.",
        metric_unit="MW", metric_base=1320, metric_growth=(0.03, 0.09), metric_decimals=0,
        metric_questions=(
            "¿Qué capacidad instalada tenía {n} al cierre de {y}?",
            "¿Cuántos megavatios tenía instalados {n} a final de {y}?",
        ),
        sector_row=("Producción eléctrica (GWh)", "metric", 2.3, 2.7),
        sector_questions=("¿Cuánta electricidad produjo {n} en {y}?",
                          "¿Qué producción eléctrica, en GWh, alcanzó {n} en {y}?"),
        adjustments=("la reparación de las palas dañadas por el temporal", "el deterioro de un proyecto "
                     "desechado en Teruel", "la venta de una participación minoritaria"),
        debt_extra="y excluye {b} M€ de financiación de proyectos sin recurso",
        risks=(
            ("Recurso eólico", "un año de poco viento reduce la producción y los ingresos"),
            ("Precio mayorista de la electricidad", "la parte de la producción no cubierta está expuesta al precio "
             "del mercado diario"),
            ("Cambios regulatorios", "las medidas de intervención del mercado eléctrico afectan a los ingresos"),
            ("Tramitación de permisos", "los retrasos en las autorizaciones ambientales desplazan la entrada en "
             "operación de los proyectos"),
            ("Tipos de interés", "los proyectos se financian con deuda a largo plazo"),
            ("Canibalización de precios", "la coincidencia de la producción eólica y solar deprime los precios "
             "capturados"),
            ("Disponibilidad de aerogeneradores", "las averías de multiplicadoras reducen la disponibilidad técnica"),
        ),
        priorities=(
            ("Repotenciación", "sustituir los aerogeneradores más antiguos por máquinas de mayor potencia"),
            ("Contratos de venta a largo plazo", "cerrar acuerdos de compraventa con clientes industriales"),
            ("Hibridación", "añadir plantas solares y baterías en los nudos existentes"),
            ("Portugal", "duplicar la capacidad en operación en el país"),
            ("Rotación de activos", "vender participaciones minoritarias en parques maduros"),
            ("Disponibilidad técnica", "superar el 97 % de disponibilidad de la flota de aerogeneradores"),
        ),
        highlights=(
            "la conexión del parque de La Muela III", "la firma de un contrato de compraventa de energía con una "
            "siderúrgica", "la repotenciación del parque de El Perdón", "la entrada en operación de la primera "
            "batería del grupo",
        ),
        initiative="El grupo financió la restauración de hábitats esteparios junto a sus parques del valle del Ebro",
        covered=True,
        sector="Energías renovables",
        arguments=(
            ("Crecimiento visible", "la cartera de proyectos en tramitación permite duplicar la capacidad"),
            ("Ingresos contratados", "los contratos a largo plazo con clientes industriales reducen la volatilidad"),
            ("Repotenciación rentable", "los emplazamientos con mejor viento admiten máquinas más eficientes"),
            ("Rotación de activos", "la venta de participaciones cristaliza valor por encima de libros"),
            ("Apoyo regulatorio", "los objetivos europeos de renovables sostienen la demanda"),
            ("Descuento frente a comparables", "cotiza a un múltiplo inferior al de otros productores "
             "independientes"),
        ),
    ),
)  # fmt: skip

_CONTEXTS = {
    2022: (
        "la inflación más alta en casi cuatro décadas, el encarecimiento de la energía y la guerra en Ucrania",
        "una fuerte subida de los costes de las materias primas y de la energía",
        "la incertidumbre causada por la invasión de Ucrania y el endurecimiento de la política monetaria",
    ),
    2023: (
        "la subida de los tipos de interés y la moderación del consumo en Europa",
        "la desaceleración económica y unos costes financieros más elevados",
        "la normalización de las cadenas de suministro y una inflación todavía persistente",
    ),
}
_ADJECTIVES = ("exigente", "de crecimiento", "de consolidación", "complejo pero satisfactorio", "de transformación")

_ROWS = (  # key, label, decimals, unit of the answer
    ("rev", "Ingresos ordinarios (M€)", 1, "M€"),
    ("sector", "", 1, ""),
    ("ebitda", "EBITDA ajustado¹ (M€)", 1, "M€"),
    ("margin", "Margen EBITDA ajustado (%)", 1, "%"),
    ("ebit", "Resultado de explotación (M€)", 1, "M€"),
    ("net", "Beneficio neto atribuido (M€)", 1, "M€"),
    ("eps", "Beneficio por acción (€)", 2, "€"),
    ("capex", "Inversiones materiales e intangibles (M€)", 1, "M€"),
    ("debt", "Deuda financiera neta² (M€)", 1, "M€"),
    ("lev", "Deuda financiera neta / EBITDA (veces)", 2, "veces"),
    ("fcf", "Flujo de caja libre³ (M€)", 1, "M€"),
)
_ROW_QUESTIONS = {
    "rev": (
        "¿Cuáles fueron los ingresos ordinarios de {n} en {y}?",
        "¿Qué cifra de ingresos obtuvo {n} en el ejercicio {y}?",
        "¿A cuánto ascendieron las ventas de {n} en {y} según sus principales magnitudes?",
    ),
    "ebitda": (
        "¿Cuál fue el EBITDA ajustado de {n} en {y}?",
        "¿Qué EBITDA declaró {n} en {y} según sus principales magnitudes?",
        "¿Cuánto fue el resultado bruto de explotación ajustado de {n} en {y}?",
    ),
    "margin": (
        "¿Qué margen EBITDA ajustado tuvo {n} en {y}?",
        "¿Cuál fue el margen EBITDA de {n} en el ejercicio {y}?",
    ),
    "ebit": ("¿Cuál fue el resultado de explotación de {n} en {y}?", "¿Qué EBIT obtuvo {n} en {y}?"),
    "net": (
        "¿Qué beneficio neto atribuido obtuvo {n} en {y}?",
        "¿Cuánto ganó {n} en {y}?",
        "¿Cuál fue el resultado neto atribuido de {n} en el ejercicio {y}?",
    ),
    "eps": ("¿Cuál fue el beneficio por acción de {n} en {y}?", "¿Qué BPA registró {n} en {y}?"),
    "capex": ("¿Cuánto invirtió {n} en {y}?", "¿A cuánto ascendieron las inversiones de {n} en {y}?"),
    "fcf": ("¿Qué flujo de caja libre generó {n} en {y}?", "¿Cuál fue el flujo de caja libre de {n} en {y}?"),
    "debt": (
        "¿Qué deuda financiera neta tenía {n} al cierre de {y}?",
        "¿Cuál era el endeudamiento neto de {n} a final de {y}?",
    ),
    "lev": (
        "¿Cuántas veces el EBITDA suponía la deuda neta de {n} al cierre de {y}?",
        "¿Cuál era el apalancamiento (deuda neta sobre EBITDA) de {n} en {y}?",
    ),
}


def _issuer_figures(issuer: _Issuer, rng: np.random.Generator) -> dict[int, dict[str, float]]:
    """Key figures of 2021-2023, rounded as they are printed."""
    out: dict[int, dict[str, float]] = {}
    rev, staff, metric = issuer.revenue * rng.uniform(0.9, 1.1), issuer.staff * rng.uniform(0.95, 1.05), 0.0
    for year in (2021, *YEARS):
        if year > 2021:
            rev *= 1 + rng.uniform(-0.04, 0.14)
            staff *= 1 + rng.uniform(-0.03, 0.06)
        metric = issuer.metric_base if year == 2021 else metric * (1 + rng.uniform(*issuer.metric_growth))
        metric = round(metric, issuer.metric_decimals)
        f: dict[str, float] = {"rev": round(rev, 1), "metric": metric, "staff": round(staff)}
        f["margin"] = round(100 * (issuer.margin + rng.normal(0, 0.012 * issuer.margin / 0.15)), 1)
        f["ebitda"] = round(f["rev"] * f["margin"] / 100, 1)
        f["ebit"] = round(f["ebitda"] * rng.uniform(0.55, 0.7), 1)
        f["debt"] = round(f["ebitda"] * (issuer.leverage + rng.normal(0, 0.2)), 1)
        f["lev"] = round(f["debt"] / f["ebitda"], 2)
        f["net"] = round((f["ebit"] - 0.04 * f["debt"]) * 0.75, 1)
        f["eps"] = round(f["net"] / issuer.shares, 2)
        f["dps"] = round(f["eps"] * rng.uniform(0.4, 0.6), 2)
        f["capex"] = round(f["rev"] * issuer.capex_ratio * rng.uniform(0.8, 1.2), 1)
        f["ocf"] = round(f["ebitda"] * rng.uniform(0.75, 0.9), 1)
        f["fcf"] = round(f["ocf"] - f["capex"] - f["debt"] * rng.uniform(0.03, 0.06), 1)
        _, basis, lo, hi = issuer.sector_row
        f["sector"] = round((f["rev"] if basis == "rev" else metric) * rng.uniform(lo, hi), 1)
        f["adjust"] = round(f["ebitda"] * rng.uniform(0.02, 0.06), 1)
        f["leases"] = round(f["debt"] * rng.uniform(0.12, 0.3), 1)
        f["extra"] = round(f["debt"] * rng.uniform(0.05, 0.15), 1)
        f["emissions"] = round(rng.uniform(4, 18), 1)
        f["renewable"] = round(rng.uniform(35, 95), 1)
        f["women"] = round(rng.uniform(24, 46), 1)
        f["training"] = round(rng.uniform(14, 38), 1)
        f["guide_lo"] = float(rng.integers(2, 7))
        f["target_lev"] = round(issuer.leverage + rng.uniform(-0.6, -0.2), 1)
        f["lead_segment"] = float(rng.integers(0, 3))  # the segment that grew most
        out[year] = f
    return out


def _annual_report(new_doc: NewDoc, issuer: _Issuer, year: int, figs: dict, rng: np.random.Generator) -> _Doc:
    """An annual report of ``issuer`` for ``year`` (the shared template)."""
    n, f, prev = issuer.name, figs[year], figs[year - 1]
    doc = new_doc(f"{n} — Informe anual {year}", "informe_anual")
    growth = 100 * (f["rev"] / prev["rev"] - 1)
    ebitda_growth = 100 * (f["ebitda"] / prev["ebitda"] - 1)
    doc.heading(1, doc.titulo)
    doc.add(
        f"{n} es {issuer.activity}, con sede social en {issuer.city}. Este informe anual recoge la actividad, los "
        f"resultados y las principales magnitudes del grupo en el ejercicio {year}, cerrado el 31 de diciembre, y "
        f"fue formulado por el Consejo de Administración el {int(rng.integers(20, 28))} de febrero de {year + 1}. "
        "Las cifras se expresan en millones de euros salvo indicación en contrario."
    )

    doc.heading(2, "Carta de la presidenta" if issuer.president_title == "presidenta" else "Carta del presidente")
    verb = "crecieron" if growth >= 0 else "retrocedieron"
    doc.add(
        f"Estimados accionistas: {year} ha sido un ejercicio {_pick(rng, _ADJECTIVES)} para {n}. En un entorno "
        f"marcado por {_pick(rng, _CONTEXTS[year])}, el equipo ha sabido proteger la rentabilidad, cuidar a "
        "nuestros clientes y avanzar en los proyectos que sostendrán el crecimiento de los próximos años."
    )
    doc.add(
        f"Los ingresos {verb} un {_pct(abs(growth))} y el EBITDA ajustado "
        f"{'mejoró' if ebitda_growth >= 0 else 'se redujo'} un {_pct(abs(ebitda_growth))}. "
        "A la vista de estos resultados, el Consejo de Administración propondrá a la Junta General de Accionistas "
        f"el reparto de un dividendo de {_es(f['dps'], 2)} euros por acción con cargo al ejercicio {year}, en línea "
        "con nuestra política de remunerar al accionista sin comprometer la solidez del balance.",
        tag="dividendo",
    )
    doc.add(
        f"Entre los hitos del año quiero destacar {_pick(rng, issuer.highlights)}. Nada de ello habría sido posible "
        f"sin el compromiso de las personas que forman {n}, a las que agradezco su esfuerzo, ni sin la confianza de "
        "nuestros clientes, proveedores y accionistas.",
        f"{issuer.president}, {issuer.president_title} del Consejo de Administración.",
    )

    doc.heading(2, "Principales magnitudes")
    doc.add(
        _pick(rng, (
            f"La tabla siguiente resume las magnitudes clave del ejercicio {year} y su comparación con {year - 1}.",
            f"Las principales magnitudes financieras del grupo en {year}, comparadas con las del ejercicio anterior, "
            "son las siguientes.",
            f"Principales magnitudes consolidadas de {n} en {year} y {year - 1}.",
        ))  # fmt: skip
    )
    rows = []
    sector_label = issuer.sector_row[0]
    for key, label, dec, _ in _ROWS:
        cur, old = f[key], prev[key]
        if key == "margin":
            var = f"{_signed(cur - old)} p. p."
        elif key == "lev":
            var = _signed(cur - old, 2)
        else:
            var = _pct(100 * (cur / old - 1)) if old > 0 and cur > 0 else "n. s."
            var = var if var == "n. s." or var.startswith("-") else "+" + var
        rows.append((label or sector_label, _es(cur, dec), _es(old, dec), var))
    doc.add(_table(("Magnitud", str(year), str(year - 1), "Variación"), rows, "lrrr"), tag="magnitudes")
    reason = issuer.adjustments[YEARS.index(year)]
    extra = issuer.debt_extra.format(b=_es(f["extra"]))
    doc.add(
        f"¹ Medida alternativa de rendimiento no auditada: resultado de explotación antes de amortizaciones y "
        f"deterioros, excluidos {_es(f['adjust'])} M€ de gastos no recurrentes por {reason}.",
        tag="nota_ebitda",
    )
    doc.add(f"² Incluye pasivos por arrendamiento (NIIF 16) por {_es(f['leases'])} M€ {extra}.", tag="nota_deuda")
    doc.add(
        f"³ Flujo de caja de las actividades de explotación ({_es(f['ocf'])} M€) menos inversiones netas y pagos "
        "por arrendamientos. Dato no auditado.",
        tag="nota_caja",
    )

    doc.heading(2, "Evolución del negocio")
    doc.heading(3, "Ingresos por línea de negocio")
    shares = np.round(rng.dirichlet((6, 4, 3)) * 100, 1)
    s = issuer.segments
    doc.add(
        f"Los ingresos del ejercicio se repartieron entre las tres líneas de negocio del grupo: {s[0]} aportó el "
        f"{_pct(shares[0])} de la cifra de negocios, {s[1]} el {_pct(shares[1])} y {s[2]} el "
        f"{_pct(100 - shares[0] - shares[1])}. La línea de {s[int(f['lead_segment'])].lower()} fue la que más "
        "contribuyó al crecimiento, gracias a la mejora del precio medio y a la incorporación de nuevos clientes."
    )
    doc.add(
        _pick(rng, (
            "Los costes de aprovisionamiento y de energía evolucionaron de forma desigual a lo largo del año: la "
            "presión del primer semestre se moderó en la segunda mitad, lo que permitió recuperar parte del margen "
            "perdido.",
            "La política comercial combinó subidas selectivas de precios con promociones dirigidas, de modo que el "
            "volumen se mantuvo pese al encarecimiento generalizado de los costes.",
            "El grupo trasladó a sus precios buena parte de la inflación de costes, aunque con cierto retraso, y "
            "compensó el resto con ahorros de eficiencia en compras y logística.",
        ))  # fmt: skip
    )
    doc.heading(3, "Actividad y plantilla")
    staff_growth = 100 * (f["staff"] / prev["staff"] - 1)
    doc.add(
        issuer.metric_text.format(v=_es(f["metric"], issuer.metric_decimals))
        + f" La plantilla media del ejercicio fue de {_es(f['staff'], 0)} personas, un {_pct(abs(staff_growth))} "
        f"{'más' if staff_growth >= 0 else 'menos'} que en el año anterior, y el "
        f"{_pct(rng.uniform(78, 94))} de los contratos son indefinidos.",
        tag="actividad",
    )
    doc.add(
        f"La dirección ejecutiva, encabezada por {issuer.ceo}, ha impulsado durante el ejercicio un plan de "
        "eficiencia que revisa los procesos de compras, la planificación de las operaciones y la gestión del "
        "capital circulante. Sus primeros resultados se aprecian ya en la reducción de existencias y en la mejora "
        "del periodo medio de cobro."
    )

    doc.heading(2, "Riesgos principales")
    doc.add(
        f"El Consejo de Administración, a través de la Comisión de Auditoría y Control, supervisa el mapa de "
        f"riesgos de {n}, que se actualiza cada año con la participación de las direcciones de negocio. Los riesgos "
        f"principales identificados para el ejercicio {year} son los siguientes:"
    )
    risks = _choose(rng, issuer.risks, 5)
    doc.add(_bullets(risks), tag="riesgos")
    doc.add(
        "Para cada uno de estos riesgos el grupo dispone de planes de respuesta, indicadores de seguimiento y "
        "responsables asignados. Los riesgos financieros, como el de tipo de interés o el de liquidez, se gestionan "
        "de forma centralizada por la dirección financiera."
    )

    doc.heading(2, "Sostenibilidad")
    doc.add(
        f"En {year} las emisiones de alcance 1 y 2 de {n} se redujeron un {_pct(f['emissions'])} respecto al año "
        f"anterior, y el {_pct(f['renewable'])} de la electricidad consumida procedió de fuentes renovables. "
        f"{issuer.initiative}.",
        tag="emisiones",
    )
    doc.heading(3, "Personas")
    doc.add(
        f"Las mujeres ocupan el {_pct(f['women'])} de los puestos directivos del grupo. Cada empleado recibió una "
        f"media de {_es(f['training'])} horas de formación, centrada en seguridad, digitalización y atención al "
        "cliente, y el índice de frecuencia de accidentes volvió a reducirse.",
        tag="personas",
    )

    doc.heading(2, "Perspectivas")
    lo = int(f["guide_lo"])
    doc.add(
        f"Para {year + 1}, {n} prevé un crecimiento de los ingresos de entre el {lo} % y el {lo + 3} %, con un "
        f"margen EBITDA ajustado similar al de {year}. Las prioridades de gestión para el próximo ejercicio son:",
        tag="guia",
    )
    priorities = _choose(rng, issuer.priorities, 4)
    doc.add(_bullets(priorities, numbered=True), tag="prioridades")
    doc.add(
        "El grupo mantendrá una política financiera prudente, con el objetivo de situar la ratio de deuda "
        f"financiera neta sobre EBITDA por debajo de {_es(f['target_lev'])} veces, y seguirá evaluando "
        "oportunidades de crecimiento que encajen con su estrategia."
    )
    doc.meta = {"risks": risks, "priorities": priorities, "reason": reason, "extra": extra}
    return doc


def _report_questions(c: _Corpus, issuer: _Issuer, year: int, rng: np.random.Generator) -> list[_Question]:
    """Questions on one annual report."""
    n, doc, f = issuer.name, c.reports[issuer.name, year], c.figures[issuer.name][year]
    out: list[_Question] = []
    for key in _choose(rng, [row[0] for row in _ROWS], 2):
        y = year if rng.random() < 0.75 else year - 1
        dec, unit = next((d, u) for k, _, d, u in _ROWS if k == key)
        templates = issuer.sector_questions if key == "sector" else _ROW_QUESTIONS[key]
        unit = issuer.sector_row[0].split("(")[-1].rstrip(")") if key == "sector" else unit
        value = c.figures[n][y][key]
        refs = tuple((c.reports[n, ry], "magnitudes") for ry in YEARS if ry in (y, y + 1))
        out.append(_Question("tabla", _pick(rng, templates).format(n=n, y=y), f"{_es(value, dec)} {unit}", refs))
    dato = {  # name: (tag of the passage, question and answer)
        "actividad": lambda: (
            "actividad",
            _pick(rng, issuer.metric_questions).format(n=n, y=year),
            f"{_es(f['metric'], issuer.metric_decimals)} {issuer.metric_unit}",
        ),
        "plantilla": lambda: (
            "actividad",
            _pick(rng, (
                f"¿Qué plantilla media tuvo {n} en {year}?",
                f"¿Cuántas personas empleaba de media {n} en {year}?",
                f"¿Cuál fue el número medio de empleados de {n} durante {year}?",
            )),  # fmt: skip
            f"{_es(f['staff'], 0)} personas",
        ),
        "dividendo": lambda: (
            "dividendo",
            _pick(rng, (
                f"¿Qué dividendo propone {n} con cargo al ejercicio {year}?",
                f"¿Cuánto dividendo por acción propuso repartir {n} por el ejercicio {year}?",
            )),  # fmt: skip
            f"{_es(f['dps'], 2)} euros por acción",
        ),
        "emisiones": lambda: (
            "emisiones",
            _pick(rng, (
                f"¿Cuánto redujo {n} sus emisiones de alcance 1 y 2 en {year}?",
                f"¿En qué porcentaje bajaron las emisiones directas e indirectas de {n} en {year}?",
            )),  # fmt: skip
            _pct(f["emissions"]),
        ),
        "personas": lambda: (
            "personas",
            _pick(rng, (
                f"¿Qué porcentaje de los puestos directivos de {n} ocupaban mujeres en {year}?",
                f"¿Cuál era la presencia femenina en la dirección de {n} en {year}?",
            )),  # fmt: skip
            _pct(f["women"]),
        ),
        "guia": lambda: (
            "guia",
            _pick(rng, (
                f"¿Qué crecimiento de ingresos prevé {n} para {year + 1}?",
                f"¿Cuál es la previsión de ventas de {n} para {year + 1} según su informe de {year}?",
            )),  # fmt: skip
            f"Entre el {int(f['guide_lo'])} % y el {int(f['guide_lo']) + 3} %",
        ),
    }
    for name in _choose(rng, list(dato), 2):
        tag, question, answer = dato[name]()
        out.append(_Question("dato", question, answer, ((doc, tag),)))
    meta = doc.meta
    notas = {
        "nota_ebitda": (
            (
                f"¿Qué gastos excluye el EBITDA ajustado de {n} en {year}?",
                f"¿Qué ajuste se aplica al EBITDA de {n} en {year} según la nota de sus principales magnitudes?",
                f"¿Por qué se ajusta el EBITDA que publica {n} para {year}?",
            ),
            f"{_es(f['adjust'])} M€ de gastos no recurrentes por {meta['reason']}",
        ),
        "nota_deuda": (
            (
                f"¿Qué incluye la cifra de deuda financiera neta de {n} en {year}?",
                f"¿Qué partidas componen la deuda neta de {n} al cierre de {year}?",
                f"¿Qué recoge la deuda financiera neta de {n} a cierre de {year}, según la nota de sus magnitudes?",
            ),
            f"Incluye pasivos por arrendamiento (NIIF 16) por {_es(f['leases'])} M€ {meta['extra']}",
        ),
        "nota_caja": (
            (
                f"¿Cómo calcula {n} su flujo de caja libre de {year}?",
                f"¿De qué flujo de caja de explotación parte el flujo de caja libre de {n} en {year}?",
            ),
            f"Flujo de caja de las actividades de explotación ({_es(f['ocf'])} M€) menos inversiones netas y "
            "pagos por arrendamientos; dato no auditado",
        ),
    }
    for tag in _choose(rng, list(notas), 2):
        templates, answer = notas[tag]
        out.append(_Question("nota", _pick(rng, templates), answer, ((doc, tag), (doc, "magnitudes"))))
    out.append(
        _Question(
            "lista",
            _pick(rng, (
                f"¿Qué riesgos principales señala {n} en su informe de {year}?",
                f"¿Cuáles son los principales riesgos identificados por {n} para el ejercicio {year}?",
                f"Enumera los riesgos principales que recoge el informe anual {year} de {n}.",
            )),  # fmt: skip
            _names(meta["risks"]),
            ((doc, "riesgos"),),
        )
    )
    if year == 2023 or rng.random() < 0.5:
        out.append(
            _Question(
                "lista",
                _pick(rng, (
                    f"¿Qué prioridades de gestión fija {n} para {year + 1}?",
                    f"¿Cuáles son las prioridades de {n} para el ejercicio {year + 1} según su informe anual?",
                )),  # fmt: skip
                _names(meta["priorities"]),
                ((doc, "prioridades"),),
            )
        )
    return out


# --------------------------------------------------------------------------- funds


@dataclass(frozen=True)
class _Fund:
    name: str
    short: str
    index: str
    exposure: str
    index_text: str  # mentions ``components`` and ``review``
    components: str
    review: str
    launch: date
    sri: tuple[int, int]  # in the KIDs of 2023 and 2024
    charges: float  # ongoing charges in the KID of 2024, %
    aum: float  # M€
    replication: str
    distribution: str
    ticker: str
    hold: int  # recommended holding period, years
    volatility: float
    drift: float
    risks: tuple[tuple[str, str], ...]


FUNDS: tuple[_Fund, ...] = (
    _Fund(
        name="Atalaya IBEX 35 UCITS ETF", short="Atalaya IBEX 35", index="IBEX 35®",
        exposure="acciones de las principales sociedades cotizadas en las bolsas españolas",
        index_text="El IBEX 35® es el índice de referencia de la bolsa española, calculado por BME. Está formado por "
        "los {components} más líquidos negociados en el Sistema de Interconexión Bursátil, ponderados por su "
        "capitalización ajustada por capital flotante, y su composición se revisa con periodicidad {review}.",
        components="35 valores", review="semestral, en junio y diciembre",
        launch=date(2006, 10, 2), sri=(5, 4), charges=0.15, aum=850.0, replication="Física completa",
        distribution="Distribución semestral de dividendos", ticker="ATIBX", hold=5, volatility=0.19, drift=0.06,
        risks=(("Riesgo de concentración sectorial", "bancos y compañías eléctricas suman más de la mitad del "
                "peso del índice, por lo que su evolución condiciona la del Fondo"),
               ("Riesgo de mercado doméstico", "todas las inversiones se concentran en un solo país")),
    ),
    _Fund(
        name="Atalaya Euro Stoxx 50 UCITS ETF", short="Atalaya Euro Stoxx 50", index="EURO STOXX 50®",
        exposure="acciones de las mayores compañías de los países de la zona del euro",
        index_text="El EURO STOXX 50® reúne a los {components} de mayor capitalización de los sectores "
        "supersectoriales de la zona del euro, seleccionados por STOXX Ltd. Las ponderaciones se limitan al 10 % "
        "por compañía y la composición se revisa con periodicidad {review}.",
        components="50 valores", review="anual, en septiembre",
        launch=date(2009, 4, 20), sri=(4, 4), charges=0.10, aum=610.0, replication="Física completa",
        distribution="Acumulación", ticker="ATSX5", hold=5, volatility=0.17, drift=0.06,
        risks=(("Riesgo de concentración geográfica", "Francia y Alemania representan más de la mitad del índice"),
               ("Riesgo de préstamo de valores", "el Fondo puede prestar hasta el 30 % de su cartera y soportar la "
                "insolvencia del prestatario")),
    ),
    _Fund(
        name="Atalaya Dividendo Europa UCITS ETF", short="Atalaya Dividendo Europa",
        index="STOXX® Europe Select Dividend 30",
        exposure="acciones europeas con rentabilidades por dividendo elevadas y sostenidas",
        index_text="El STOXX® Europe Select Dividend 30 selecciona los {components} europeos con mayor rentabilidad "
        "por dividendo entre los que han mantenido o aumentado su dividendo durante cinco años, ponderados por "
        "rentabilidad por dividendo neta, y se revisa con periodicidad {review}.",
        components="30 valores", review="anual, en marzo",
        launch=date(2012, 6, 11), sri=(4, 4), charges=0.30, aum=240.0, replication="Física completa",
        distribution="Distribución trimestral de dividendos", ticker="ATDIV", hold=5, volatility=0.16, drift=0.05,
        risks=(("Riesgo de estilo", "las estrategias de dividendo pueden comportarse peor que el mercado en las "
                "fases de crecimiento"),
               ("Riesgo de tipo de cambio", "parte de la cartera cotiza en libras esterlinas y francos suizos")),
    ),
    _Fund(
        name="Atalaya MSCI World ESG UCITS ETF", short="Atalaya MSCI World ESG", index="MSCI World ESG Leaders",
        exposure="acciones de compañías de países desarrollados con las mejores calificaciones ambientales, "
        "sociales y de gobierno corporativo de su sector",
        index_text="El MSCI World ESG Leaders parte del índice MSCI World y conserva, sector a sector, las compañías "
        "mejor valoradas con criterios ESG; excluye armamento controvertido, tabaco y carbón térmico, agrupa "
        "{components} de 23 países desarrollados y se revisa con periodicidad {review}.",
        components="alrededor de 700 valores", review="trimestral",
        launch=date(2018, 9, 24), sri=(4, 4), charges=0.20, aum=420.0, replication="Física optimizada",
        distribution="Acumulación", ticker="ATWES", hold=5, volatility=0.15, drift=0.07,
        risks=(("Riesgo de tipo de cambio", "más del 70 % de la cartera está denominada en dólares"),
               ("Riesgo de criterios de sostenibilidad", "la exclusión de compañías por motivos ESG puede hacer que "
                "el Fondo se aparte del mercado en su conjunto")),
    ),
    _Fund(
        name="Atalaya Bonos Euro 1-3 UCITS ETF", short="Atalaya Bonos Euro 1-3",
        index="Bloomberg Euro Treasury 1-3 Year",
        exposure="deuda pública de los Estados de la zona del euro con vencimiento de uno a tres años",
        index_text="El Bloomberg Euro Treasury 1-3 Year mide la evolución de los bonos a tipo fijo emitidos por los "
        "Estados de la zona del euro con vencimiento residual de entre uno y tres años. Incluye {components} con "
        "calificación de grado de inversión y se revisa con periodicidad {review}.",
        components="alrededor de 120 emisiones", review="mensual",
        launch=date(2015, 2, 9), sri=(2, 2), charges=0.09, aum=330.0, replication="Física optimizada",
        distribution="Acumulación", ticker="ATB13", hold=2, volatility=0.02, drift=0.015,
        risks=(("Riesgo de tipo de interés", "una subida de los tipos reduce el precio de los bonos en cartera"),
               ("Riesgo de crédito soberano", "un deterioro de la solvencia de un Estado emisor reduciría el valor "
                "de sus bonos")),
    ),
)  # fmt: skip

_FUND_RISKS = (
    ("Riesgo de mercado", "el valor liquidativo del Fondo fluctúa con los precios de los activos del índice y el "
     "inversor puede perder parte del capital invertido"),
    ("Riesgo de réplica", "el Fondo puede no reproducir con exactitud la rentabilidad del índice por los gastos, la "
     "fiscalidad de los dividendos o la réplica optimizada"),
    ("Riesgo de liquidez en el mercado secundario", "en momentos de tensión la horquilla de compra y venta en bolsa "
     "puede ampliarse y el precio apartarse del valor liquidativo"),
    ("Riesgo operacional", "errores humanos o fallos de los sistemas del gestor, del depositario o de terceros "
     "pueden ocasionar pérdidas"),
)  # fmt: skip
_SRI_LABELS = ("", "la más baja", "baja", "media baja", "media", "media alta", "la segunda más alta", "la más alta")


def _fund_figures(fund: _Fund, rng: np.random.Generator) -> dict[str, float]:
    """Fund-level figures: costs of both KIDs, size, fees."""
    g = {
        "charges2024": fund.charges,
        "charges2023": round(fund.charges + _pick(rng, (0.0, 0.01, 0.02, 0.03)), 2),
        "aum": round(fund.aum * rng.uniform(0.85, 1.15), 1),
        "depositary": _pick(rng, (0.01, 0.02, 0.03)),
        "entry": float(_pick(rng, (1, 2, 3))),
        "tracking": round(rng.uniform(0.05, 0.4), 2),
        "lending": float(_pick(rng, (20, 25, 30))),
    }
    g["fee"] = round(fund.charges - g["depositary"] - 0.01, 2)
    for year in (2023, 2024):
        g[f"ops{year}"] = round(rng.uniform(0.01, 0.06), 2)
        g[f"shock{year}"] = rng.uniform(0.9, 1.1)
    return g


def _prospectus(new_doc: NewDoc, fund: _Fund, g: dict[str, float], rng: np.random.Generator) -> _Doc:
    """The prospectus ("folleto") of ``fund``."""
    day = date(2023, 1, int(rng.integers(10, 28)))
    doc = new_doc(f"{fund.name} — Folleto ({MANAGER}, {_MONTHS[day.month - 1]} de {day.year})", "folleto")
    isin = "ES0105" + "".join(str(d) for d in rng.integers(0, 10, 6))
    doc.meta = {"isin": isin}
    doc.heading(1, doc.titulo)
    doc.add(
        f"Este folleto describe el {fund.name} (en adelante, el «Fondo»), un fondo de inversión cotizado (ETF) "
        f"armonizado conforme a la Directiva 2009/65/CE, gestionado por {MANAGER}, SGIIC, S.A., e inscrito en el "
        f"registro de la Comisión Nacional del Mercado de Valores. Las participaciones del Fondo se negocian en la "
        f"Bolsa de Madrid con el código {fund.ticker}. Fecha del folleto: {_fecha(day)}."
    )
    doc.heading(2, "Objetivo y política de inversión")
    doc.add(
        f"El objetivo del Fondo es replicar la evolución del índice {fund.index}, antes de comisiones y gastos, "
        f"con una desviación de seguimiento inferior al {_pct(g['tracking'], 2)} anual en condiciones normales de "
        "mercado.",
        tag="objetivo",
    )
    doc.add(
        f"Para ello el Fondo invierte en {fund.exposure}, mediante una réplica "
        f"{fund.replication.split()[-1].lower()} del índice. Puede prestar hasta el {int(g['lending'])} % de su "
        "cartera a entidades de reconocida solvencia, con garantías que se valoran diariamente, y utilizar "
        "derivados negociados en mercados organizados únicamente para gestionar la liquidez."
    )
    doc.heading(2, "Índice de referencia")
    doc.add(fund.index_text.format(components=fund.components, review=fund.review), tag="indice")
    doc.add(
        "El proveedor del índice publica su metodología, su composición y sus valores de cierre. El Fondo no está "
        "patrocinado ni promocionado por el proveedor del índice, que no asume responsabilidad alguna por su "
        "gestión."
    )
    doc.heading(2, "Datos del fondo")
    rows = (
        ("Código ISIN", isin),
        ("Código de negociación", fund.ticker),
        ("Fecha de lanzamiento", _fecha(fund.launch)),
        ("Divisa de referencia", "Euro (EUR)"),
        ("Patrimonio¹", f"{_es(g['aum'])} M€"),
        ("Método de réplica", fund.replication),
        ("Política de distribución", fund.distribution),
        ("Depositario", "Banco Depositario del Norte, S.A."),
        ("Auditor", "Auditores Asociados Castellana, S.L."),
        ("Mercado de cotización", "Bolsa de Madrid (segmento de fondos cotizados)"),
    )
    doc.add(_table(("Característica", "Valor"), rows, "ll"), tag="datos")
    doc.add("¹ Patrimonio a 31 de diciembre de 2022, según el último informe anual del Fondo.", tag="nota_datos")
    doc.heading(2, "Comisiones y gastos")
    doc.add(
        "Las comisiones de gestión y de depositaría se calculan diariamente sobre el patrimonio del Fondo y se "
        "reflejan en su valor liquidativo, por lo que reducen la rentabilidad del inversor sin que este tenga que "
        "abonarlas de forma separada."
    )
    entry = _pct(g["entry"], 0)
    rows = (
        ("Comisión de gestión anual", _pct(g["fee"], 2), "Patrimonio"),
        ("Comisión de depositaría anual", _pct(g["depositary"], 2), "Patrimonio"),
        ("Comisión de suscripción²", f"Hasta el {entry}", "Importe suscrito en el mercado primario"),
        ("Comisión de reembolso²", f"Hasta el {entry}", "Importe reembolsado en el mercado primario"),
        ("Comisiones de intermediación³", "Según intermediario", "Operaciones en el mercado secundario"),
    )
    doc.add(_table(("Concepto", "Importe", "Base de cálculo"), rows, "lrl"), tag="costes")
    doc.add(
        "² Se aplica solo a los participantes autorizados que suscriben o reembolsan en el mercado primario, con un "
        f"máximo del {entry} a favor del Fondo; el inversor que compra o vende en bolsa no la soporta.",
        tag="nota_costes",
    )
    doc.add(
        "³ El inversor que negocia en el mercado secundario soporta las comisiones de su intermediario y la "
        "horquilla de precios, que no forman parte de los gastos del Fondo."
    )
    doc.heading(2, "Factores de riesgo")
    doc.add(
        "Antes de invertir, el inversor debe tener en cuenta que el valor de su inversión puede bajar además de "
        "subir y que podría no recuperar el importe invertido. Los principales riesgos del Fondo son:"
    )
    risks = [*_FUND_RISKS[:2], *fund.risks, *_choose(rng, _FUND_RISKS[2:], 1)]
    doc.add(_bullets(risks), tag="riesgos")
    doc.meta["risks"] = risks
    doc.heading(2, "Suscripciones y reembolsos")
    doc.add(
        "Los inversores minoristas compran y venden participaciones del Fondo en bolsa, a través de cualquier "
        "intermediario autorizado, durante el horario de negociación. Solo los participantes autorizados pueden "
        "suscribir y reembolsar directamente con el Fondo, por importes mínimos equivalentes a una cesta del índice. "
        "Los especialistas designados mantienen precios de compra y de venta durante la sesión."
    )
    doc.heading(2, "Valor liquidativo y fiscalidad")
    doc.add(
        "El valor liquidativo se calcula cada día hábil con los precios de cierre de los activos en cartera y se "
        "publica en la web de la gestora. Durante la sesión se difunde además un valor liquidativo indicativo. Para "
        "el inversor residente persona física, las ganancias obtenidas en la venta de participaciones tributan como "
        "rendimientos del ahorro y no se benefician del régimen de traspasos entre fondos."
    )
    doc.heading(2, "Información adicional")
    doc.add(
        f"El documento de datos fundamentales, los informes semestrales y anuales y el reglamento de gestión del "
        f"Fondo pueden consultarse gratuitamente en la sede de {MANAGER}, en su página web y en los registros de la "
        "CNMV. Este folleto puede ser modificado; la versión vigente es la publicada en la web de la gestora."
    )
    return doc


def _kid(new_doc: NewDoc, fund: _Fund, year: int, g: dict[str, float], rng: np.random.Generator) -> _Doc:
    """The key information document ("kid") of ``fund`` published in ``year``."""
    day = date(year, 2, int(rng.integers(1, 28)))
    doc = new_doc(f"{fund.name} — Documento de datos fundamentales ({MANAGER}, {_fecha(day)})", "kid")
    sri, charges, ops = fund.sri[year - 2023], g[f"charges{year}"], g[f"ops{year}"]
    doc.heading(1, doc.titulo)
    doc.add(
        "Finalidad: el presente documento le proporciona información fundamental sobre este producto de inversión. "
        "No se trata de material de promoción comercial. La ley exige que se facilite esta información para "
        "ayudarle a comprender la naturaleza, los riesgos, los costes y los beneficios y pérdidas potenciales de "
        "este producto y para ayudarle a compararlo con otros productos."
    )
    doc.heading(2, "Producto")
    doc.add(
        f"Producto: {fund.name}. Productor: {MANAGER}, SGIIC, S.A. Para más información llame al 910 000 000 o "
        f"visite la web de la gestora. La Comisión Nacional del Mercado de Valores es responsable de la supervisión "
        f"de {MANAGER} en relación con este documento. Fecha de elaboración: {_fecha(day)}."
    )
    doc.heading(3, "¿Qué es este producto?")
    doc.add(
        "Tipo: fondo de inversión cotizado (ETF) armonizado. Plazo: el Fondo no tiene fecha de vencimiento. "
        f"Objetivos: replicar la evolución del índice {fund.index}, invirtiendo en {fund.exposure}. "
        f"Política de distribución: {fund.distribution.lower()}."
    )
    doc.add(
        "Inversor minorista al que va dirigido: inversores con conocimientos básicos de los mercados financieros, "
        f"capaces de soportar pérdidas y con un horizonte de inversión de al menos {fund.hold} años."
    )
    doc.heading(2, "¿Qué riesgos corro y qué podría obtener a cambio?")
    doc.add(
        f"Hemos clasificado este producto en la clase de riesgo {sri} en una escala de 7, que es una clase de "
        f"riesgo {_SRI_LABELS[sri]}. El indicador presupone que usted mantendrá el producto durante {fund.hold} "
        "años; si lo vende antes, el riesgo real puede variar considerablemente y podría recuperar menos dinero.",
        tag="sri",
    )
    doc.add(
        "Este producto no incluye protección alguna contra la evolución futura del mercado, por lo que podría "
        "perder una parte o la totalidad de su inversión. Otros riesgos relevantes no recogidos en el indicador son "
        "el riesgo de réplica, el de liquidez en el mercado secundario y el riesgo operacional."
    )
    doc.heading(3, "Escenarios de rentabilidad")
    doc.add(
        "Lo que obtenga de este producto dependerá de la evolución futura del mercado, que es incierta y no puede "
        f"predecirse con exactitud. Ejemplo de inversión: 10.000 €. Período de mantenimiento recomendado: "
        f"{fund.hold} años."
    )
    vol, mu, shock = fund.volatility, fund.drift, g[f"shock{year}"]
    scenarios = (
        ("Tensión", -2.4 * vol * shock, -0.9 * vol * shock),
        ("Desfavorable", -0.9 * vol * shock, -0.15 * vol * shock),
        ("Moderado", mu * shock, mu * shock),
        ("Favorable", (mu + 1.1 * vol) * shock, (mu + 0.35 * vol) * shock),
    )
    rows = [
        (
            name,
            f"{_es(10000 * (1 + r1), 0)} € ({_pct(100 * r1)})",
            f"{_es(10000 * (1 + rh) ** fund.hold, 0)} € ({_pct(100 * rh)} anual)",
        )
        for name, r1, rh in scenarios
    ]
    doc.add(
        _table(("Escenario¹", "Si sale después de 1 año", f"Si sale después de {fund.hold} años"), rows, "lrr"),
        tag="escenarios",
    )
    doc.add(
        "¹ Los escenarios desfavorable, moderado y favorable ilustran la peor, la media y la mejor rentabilidad "
        "del producto o de un índice de referencia adecuado en los últimos diez años; el escenario de tensión "
        "muestra lo que podría obtener en circunstancias extremas de mercado."
    )
    doc.heading(2, f"¿Qué pasa si {MANAGER} no puede pagar?")
    doc.add(
        "Los activos del Fondo se mantienen separados de los de la gestora y están custodiados por el depositario, "
        f"por lo que una insolvencia de {MANAGER} no afectaría a su inversión. Este producto no está cubierto por "
        "ningún sistema de garantía de depósitos ni de indemnización de los inversores."
    )
    doc.heading(2, "¿Cuáles son los costes?")
    doc.add(
        "La persona que le asesore sobre este producto o se lo venda puede cobrarle otros costes. En ese caso, "
        "esa persona le informará acerca de tales costes y de cómo afectan a su inversión."
    )
    doc.heading(3, "Costes a lo largo del tiempo")
    total = charges + ops
    rows = (
        ("Costes totales", f"{_es(100 * total, 0)} €", f"{_es(100 * total * fund.hold * (1 + mu), 0)} €"),
        ("Incidencia anual de los costes²", _pct(total, 2), _pct(total, 2)),
    )
    doc.add(
        _table(("Inversión de 10.000 €", "Si sale después de 1 año", f"Si sale después de {fund.hold} años"), rows,
               "lrr"),
        tag="costes_tiempo",
    )  # fmt: skip
    doc.add(
        "² Muestra en qué medida los costes reducen cada año su rentabilidad durante el período de mantenimiento. "
        f"Si sale al final de ese período, se prevé que su rentabilidad media anual sea del {_pct(100 * mu)} antes "
        f"de deducir los costes y del {_pct(100 * mu - total, 2)} después de deducirlos."
    )
    doc.heading(3, "Composición de los costes")
    rows = (
        ("Costes de entrada", "No cobramos comisión de entrada al inversor que compra en bolsa", "0 €"),
        ("Costes de salida", "No cobramos comisión de salida al inversor que vende en bolsa", "0 €"),
        ("Gastos corrientes³", f"{_pct(charges, 2)} del valor de su inversión al año (comisiones de gestión y "
         "otros costes administrativos o de funcionamiento)", f"{_es(100 * charges, 0)} €"),
        ("Costes de operación", f"{_pct(ops, 2)} del valor de su inversión al año, por la compra y venta de los "
         "activos subyacentes", f"{_es(100 * ops, 0)} €"),
        ("Comisiones de rendimiento", "Este producto no tiene comisión de rendimiento", "0 €"),
    )  # fmt: skip
    doc.add(_table(("Concepto", "Descripción", "Importe anual"), rows, "llr"), tag="composicion")
    doc.add(
        f"³ Estimación basada en los costes reales del ejercicio {year - 1}; la cifra puede variar de un año a "
        "otro y no incluye los costes de operación.",
        tag="nota_composicion",
    )
    doc.heading(2, "¿Cuánto tiempo debo mantener la inversión y puedo retirar el dinero de manera anticipada?")
    doc.add(
        f"Período de mantenimiento recomendado: {fund.hold} años. Puede vender sus participaciones en bolsa "
        "cualquier día hábil sin penalización por parte del Fondo, aunque soportará la horquilla de precios y las "
        "comisiones de su intermediario.",
        tag="mantenimiento",
    )
    doc.heading(2, "¿Cómo puedo reclamar?")
    doc.add(
        f"Puede presentar su reclamación ante el servicio de atención al cliente de {MANAGER} por correo postal o "
        "electrónico. Si no queda satisfecho con la respuesta, puede dirigirse al servicio de reclamaciones de la "
        "Comisión Nacional del Mercado de Valores."
    )
    doc.heading(2, "Otros datos de interés")
    doc.add(
        "El folleto, el reglamento de gestión y los informes periódicos del Fondo pueden obtenerse gratuitamente en "
        "la web de la gestora, donde también se publica la rentabilidad histórica de los últimos diez años y el "
        "cálculo mensual de los escenarios de rentabilidad anteriores."
    )
    return doc


def _fund_questions(c: _Corpus, fund: _Fund, rng: np.random.Generator) -> list[_Question]:
    """Questions on the prospectus and the KIDs of ``fund``."""
    f, g, pro = fund.short, c.funds[fund.name], c.prospectuses[fund.name]
    out: list[_Question] = []
    dato = (
        (
            "indice",
            (f"¿Cuántos valores componen el índice que replica el {f}?",
             f"¿Por cuántos componentes está formado el índice de referencia del {f}?"),
            fund.components,
        ),
        (
            "indice",
            (f"¿Cada cuánto se revisa la composición del índice de referencia del {f}?",
             f"¿Con qué periodicidad se revisa el índice que sigue el {f}?"),
            fund.review,
        ),
        (
            "objetivo",
            (f"¿Qué desviación de seguimiento máxima se fija como objetivo el {f}?",
             f"¿Qué tracking error anual persigue el {f} en condiciones normales?"),
            f"Inferior al {_pct(g['tracking'], 2)} anual",
        ),
    )  # fmt: skip
    tag, templates, answer = _pick(rng, dato)
    out.append(_Question("dato", _pick(rng, templates), answer, ((pro, tag),)))
    tabla = (
        ("datos", (f"¿Cuándo se lanzó el {f}?", f"¿Cuál es la fecha de lanzamiento del {fund.name}?"),
         _fecha(fund.launch)),
        ("datos", (f"¿Cuál es el código ISIN del {f}?", f"¿Qué ISIN tiene el {fund.name}?"), pro.meta["isin"]),
        ("datos", (f"¿Qué patrimonio tenía el {f} según su folleto?", f"¿Cuánto patrimonio gestiona el {f}?"),
         f"{_es(g['aum'])} M€"),
        ("costes", (f"¿Qué comisión de gestión cobra el {f}?", f"¿Cuál es la comisión de gestión anual del {f}?"),
         _pct(g["fee"], 2)),
    )  # fmt: skip
    for tag, templates, answer in _choose(rng, tabla, 2):
        out.append(_Question("tabla", _pick(rng, templates), answer, ((pro, tag),)))
    nota = _pick(rng, (
        ("nota_costes", "costes",
         (f"¿A quién se aplican las comisiones de suscripción y reembolso del {f}?",
          f"¿Qué comisión de suscripción máxima puede cobrar el {f} y a quién?"),
         f"Hasta el {_pct(g['entry'], 0)}, solo a los participantes autorizados que suscriben o reembolsan en el "
         "mercado primario; el inversor que compra o vende en bolsa no la soporta"),
        ("nota_datos", "datos",
         (f"¿A qué fecha se refiere el patrimonio que indica el folleto del {f}?",
          f"¿De qué fecha es el dato de patrimonio del folleto del {f}?"),
         "31 de diciembre de 2022"),
    ))  # fmt: skip
    note_tag, table_tag, templates, answer = nota
    out.append(_Question("nota", _pick(rng, templates), answer, ((pro, note_tag), (pro, table_tag))))
    out.append(
        _Question(
            "lista",
            _pick(rng, (f"¿Qué factores de riesgo señala el folleto del {f}?",
                        f"¿Cuáles son los principales riesgos del {fund.name} según su folleto?")),  # fmt: skip
            _names(pro.meta["risks"]),
            ((pro, "riesgos"),),
        )
    )
    for year in (2023, 2024):
        kid = c.kids[fund.name, year]
        sri, charges = fund.sri[year - 2023], g[f"charges{year}"]
        if rng.random() < 0.7:
            question = _pick(rng, (
                f"¿Qué indicador de riesgo tiene el {f} en su documento de datos fundamentales de {year}?",
                f"¿En qué clase de riesgo clasifica el KID de {year} al {fund.name}?",
            ))  # fmt: skip
            out.append(_Question("dato", question, f"Clase {sri} en una escala de 7", ((kid, "sri"),)))
        else:
            question = f"¿Cuál es el período de mantenimiento recomendado del {f} según su KID de {year}?"
            out.append(_Question("dato", question, f"{fund.hold} años", ((kid, "mantenimiento"),)))
        tabla = (
            ("composicion", (f"¿Qué gastos corrientes tiene el {f} según su KID de {year}?",
                             f"¿Cuáles son los gastos corrientes anuales del {fund.name} en el documento de datos "
                             f"fundamentales de {year}?"), _pct(charges, 2)),
            ("costes_tiempo", (f"¿Cuánto costaría en total invertir 10.000 € durante un año en el {f}, según su KID "
                               f"de {year}?",), f"{_es(100 * (charges + g[f'ops{year}']), 0)} €"),
            ("composicion", (f"¿Qué costes de operación soporta el {f} según su KID de {year}?",),
             _pct(g[f"ops{year}"], 2)),
        )  # fmt: skip
        tag, templates, answer = _pick(rng, tabla)
        out.append(_Question("tabla", _pick(rng, templates), answer, ((kid, tag),)))
    year = _pick(rng, (2023, 2024))
    kid = c.kids[fund.name, year]
    out.append(
        _Question(
            "nota",
            _pick(rng, (f"¿En qué se basa la estimación de gastos corrientes del KID de {year} del {f}?",
                        f"¿De qué ejercicio son los costes reales en que se basan los gastos corrientes del {f} "
                        f"en su KID de {year}?")),  # fmt: skip
            f"En los costes reales del ejercicio {year - 1}",
            ((kid, "nota_composicion"), (kid, "composicion")),
        )
    )
    return out


# --------------------------------------------------------------------------- research notes

_ANALYSTS = ("Lucía Garrido, CFA", "Tomás Rey Cabello", "Irene Santamaría", "Daniel Ocaña, CFA")
_ESTIMATES = (  # key, label, decimals, unit of the answer, question
    ("rev", "Ingresos (M€)", 1, "M€", "¿Qué ingresos estima {b} para {n} en {y}?"),
    ("ebitda", "EBITDA ajustado (M€)", 1, "M€", "¿Qué EBITDA ajustado prevé {b} para {n} en {y}?"),
    ("net", "Beneficio neto (M€)", 1, "M€", "¿Qué beneficio neto espera {b} de {n} para {y}?"),
    ("eps", "BPA (€)", 2, "€", "¿Qué beneficio por acción estima {b} para {n} en {y}?"),
    ("dps", "Dividendo por acción (€)", 2, "€", "¿Qué dividendo por acción anticipa {b} para {n} en {y}?"),
    ("per", "PER (veces)", 1, "veces", "¿A qué PER estimado para {y} cotiza {n} en opinión de {b}?"),
    ("yield", "Rentabilidad por dividendo (%)", 1, "%", "¿Qué rentabilidad por dividendo estima {b} para {n} en {y}?"),
)


def _research_note(new_doc: NewDoc, issuer: _Issuer, year: int, figs: dict, rng: np.random.Generator) -> _Doc:
    """A research note of the broker on ``issuer``, published in March of ``year``."""
    n, last, before = issuer.name, figs[year - 1], figs[year - 2]
    day = date(year, 3, int(rng.integers(4, 29)))
    doc = new_doc(f"{n} — Nota de análisis de {BROKER} ({_fecha(day)})", "nota_analisis")
    price = round(last["eps"] * rng.uniform(9, 16), 2)
    target = round(price * rng.uniform(0.9, 1.4), 2)
    upside = 100 * (target / price - 1)
    rec = "comprar" if upside > 15 else "mantener" if upside > -5 else "vender"
    est: dict[int, dict[str, float]] = {}
    rev, ebitda, net = last["rev"], last["ebitda"], last["net"]
    for y in (year, year + 1):
        rev = round(rev * rng.uniform(1.02, 1.08), 1)
        ebitda = round(rev * last["margin"] / 100 * rng.uniform(0.98, 1.04), 1)
        net = round(ebitda * last["net"] / last["ebitda"] * rng.uniform(0.95, 1.08), 1)
        eps = round(net / issuer.shares, 2)
        dps = round(eps * rng.uniform(0.4, 0.6), 2)
        est[y] = {"rev": rev, "ebitda": ebitda, "net": net, "eps": eps, "dps": dps,
                  "per": round(price / eps, 1), "yield": round(100 * dps / price, 1)}  # fmt: skip
    wacc, growth = round(rng.uniform(6.5, 9.5), 1), _pick(rng, (1.0, 1.5, 2.0))
    doc.meta = {"rec": rec, "target": target, "upside": upside, "estimates": est, "wacc": wacc, "growth": growth}
    doc.heading(1, doc.titulo)
    doc.add(
        f"{BROKER} · Análisis de renta variable · Sector: {issuer.sector} · {_fecha(day)}. "
        f"Analista: {_pick(rng, _ANALYSTS)}. Precio de cierre de referencia: {_es(price, 2)} € por acción."
    )
    doc.heading(2, "Resumen y recomendación")
    verb = "Reiteramos" if year == 2024 else "Iniciamos la cobertura con"
    doc.add(
        f"{verb} una recomendación de {rec.upper()} sobre {n}, con un precio objetivo de {_es(target, 2)} € por "
        f"acción, lo que supone un potencial de {_signed(upside)} % frente al precio de cierre de referencia. "
        f"Nuestro horizonte de valoración es de doce meses.",
        tag="recomendacion",
    )
    growth_rev = 100 * (last["rev"] / before["rev"] - 1)
    growth_ebitda = 100 * (last["ebitda"] / before["ebitda"] - 1)
    doc.add(
        f"Los resultados de {year - 1} {_pick(rng, ('superaron ligeramente', 'quedaron en línea con', 'quedaron algo por debajo de'))} "  # noqa: E501
        f"nuestras estimaciones: los ingresos variaron un {_signed(growth_rev)} % y el EBITDA ajustado un "
        f"{_signed(growth_ebitda)} %, con un margen del {_pct(last['margin'])}. La compañía ha cumplido sus "
        "objetivos de desapalancamiento y mantiene una política de dividendos estable."
    )
    doc.heading(2, "La compañía")
    s = issuer.segments
    doc.add(
        f"{n} es {issuer.activity}, con sede en {issuer.city}. Organiza su actividad en tres negocios ({s[0]}, "
        f"{s[1]} y {s[2]}) y está dirigida por {issuer.ceo}. {issuer.initiative}, una iniciativa que refuerza su "
        "perfil de sostenibilidad ante los inversores institucionales."
    )
    doc.add(
        _pick(rng, (
            "Los próximos catalizadores son la Junta General de Accionistas de junio, en la que se votará el "
            "dividendo, y la actualización del plan estratégico prevista para después del verano.",
            "Esperamos que la compañía actualice sus objetivos financieros en su próximo día del inversor, en el que "
            "la dirección detallará la asignación de capital de los próximos tres años.",
            "La cotización debería reaccionar a la confirmación de los objetivos anuales en la Junta General y a la "
            "evolución de los costes de sus principales materias primas.",
        ))  # fmt: skip
    )
    doc.heading(2, "Argumentos de inversión")
    arguments = _choose(rng, issuer.arguments, 4)
    doc.meta["arguments"] = arguments
    doc.add(_bullets(arguments), tag="argumentos")
    doc.heading(2, "Estimaciones")
    doc.add(
        f"Revisamos nuestras estimaciones tras la publicación de las cuentas anuales de {year - 1}. La tabla recoge "
        "las principales cifras esperadas para los dos próximos ejercicios."
    )
    rows = [(label, _es(est[year][k], d), _es(est[year + 1][k], d)) for k, label, d, _, _ in _ESTIMATES]
    doc.add(_table(("Magnitud", f"{year}e¹", f"{year + 1}e¹"), rows, "lrr"), tag="estimaciones")
    doc.add(f"¹ Estimaciones de {BROKER} a {_fecha(day)}; el PER y la rentabilidad por dividendo se calculan con "
            "el precio de cierre de referencia.")  # fmt: skip
    doc.heading(2, "Valoración")
    doc.add(
        "Valoramos la compañía mediante el descuento de sus flujos de caja libres para el accionista, con un coste "
        f"medio ponderado del capital (WACC) del {_pct(wacc)} y una tasa de crecimiento a perpetuidad del "
        f"{_pct(growth)}. Contrastamos el resultado con los múltiplos de compañías comparables europeas.",
        tag="valoracion",
    )
    doc.heading(2, "Riesgos para nuestra tesis")
    names = [label.lower() for label, _ in _choose(rng, issuer.risks, 3)]
    doc.add(
        f"Los principales riesgos a la baja para nuestra valoración son {names[0]}, {names[1]} y {names[2]}. Un "
        "aumento de un punto en el WACC reduciría nuestro precio objetivo en torno a un 12 %."
    )
    doc.heading(2, "Aviso legal")
    buy, hold = int(rng.integers(45, 60)), int(rng.integers(25, 35))
    doc.add(
        f"Este informe ha sido elaborado por el departamento de análisis de {BROKER}, S.V., S.A., entidad "
        "supervisada por la CNMV, con fines exclusivamente informativos. No constituye una oferta ni una "
        "recomendación personalizada de compra o venta de valores. Las opiniones y estimaciones reflejan el juicio "
        "del analista en la fecha de publicación y pueden cambiar sin previo aviso.",
        f"{BROKER} puede mantener relaciones comerciales con las compañías analizadas. La remuneración de los "
        "analistas no está vinculada a operaciones de banca de inversión. Las rentabilidades pasadas no garantizan "
        "rentabilidades futuras, y el inversor debe tener en cuenta que el valor de las inversiones puede fluctuar.",
        f"Distribución de las recomendaciones de {BROKER} a {_fecha(day)}: comprar, {_pct(buy, 0)}; mantener, "
        f"{_pct(hold, 0)}; vender, {_pct(100 - buy - hold, 0)}. El historial de recomendaciones y precios objetivo "
        "sobre esta compañía en los últimos doce meses está disponible a petición del cliente.",
    )
    return doc


def _research_questions(c: _Corpus, issuer: _Issuer, year: int, rng: np.random.Generator) -> list[_Question]:
    """Questions on one research note."""
    n, doc = issuer.name, c.research[issuer.name, year]
    m, when = doc.meta, f"marzo de {year}"
    out = [
        _Question(
            "dato",
            _pick(rng, (
                f"¿Qué recomendación y precio objetivo da {BROKER} a {n} en su nota de {when}?",
                f"¿Qué precio objetivo fijaba {BROKER} para {n} en {when}, y con qué recomendación?",
            )),  # fmt: skip
            f"{m['rec'].capitalize()}, con un precio objetivo de {_es(m['target'], 2)} € por acción",
            ((doc, "recomendacion"),),
        ),
        _Question(
            "lista",
            _pick(rng, (
                f"¿Qué argumentos de inversión destaca {BROKER} sobre {n} en {when}?",
                f"¿En qué argumentos apoya {BROKER} su tesis sobre {n} en la nota de {when}?",
            )),  # fmt: skip
            _names(m["arguments"]),
            ((doc, "argumentos"),),
        ),
    ]
    if rng.random() < 0.5:
        out.append(
            _Question(
                "dato",
                f"¿Qué WACC emplea {BROKER} para valorar {n} en su nota de {when}?",
                f"{_pct(m['wacc'])}, con un crecimiento a perpetuidad del {_pct(m['growth'])}",
                ((doc, "valoracion"),),
            )
        )
    key, _, dec, unit, template = _pick(rng, _ESTIMATES)
    y = year + int(rng.integers(2))
    out.append(
        _Question(
            "tabla",
            template.format(b=BROKER, n=n, y=y).replace("?", f", según su nota de {when}?"),
            f"{_es(m['estimates'][y][key], dec)} {unit}",
            ((doc, "estimaciones"),),
        )
    )
    return out


# --------------------------------------------------------------------------- comparisons, unanswerable

_COMPARED = (  # key, question with {y} and {names}, min or max, decimals, unit, tag
    ("rev", "¿Qué compañía tuvo mayores ingresos en {y}: {names}?", max, 1, "M€", "magnitudes"),
    ("net", "¿Cuál de estas empresas ganó más dinero en {y}: {names}?", max, 1, "M€", "magnitudes"),
    ("margin", "¿Qué empresa logró el mayor margen EBITDA ajustado en {y}: {names}?", max, 1, "%", "magnitudes"),
    ("lev", "¿Cuál de estas compañías estaba menos apalancada al cierre de {y}: {names}?", min, 2, "veces",
     "magnitudes"),
    ("staff", "¿Qué empresa tuvo una plantilla media mayor en {y}: {names}?", max, 0, "personas", "actividad"),
    ("women", "¿En cuál de estas compañías ocupaban las mujeres más puestos directivos en {y}: {names}?", max, 1, "%",
     "personas"),
)  # fmt: skip


def _listing(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + (" o " if len(names) > 1 else "") + names[-1]


def _best(values: dict[str, float], better: Callable, decimals: int, unit: str) -> str:
    """The winners (every tied one) with their value."""
    top = better(values.values())
    return " y ".join(f"{name} ({_es(v, decimals)} {unit})" for name, v in values.items() if v == top)


def _comparisons(c: _Corpus, rng: np.random.Generator) -> list[_Question]:
    """Questions that need several documents: issuers against issuers, funds against funds, notes."""
    out: list[_Question] = []
    issuers = [issuer.name for issuer in ISSUERS]
    for key, template, better, dec, unit, tag in _COMPARED:
        y = _pick(rng, YEARS)
        names = [issuers[i] for i in rng.permutation(len(issuers))[: int(rng.integers(2, 4))]]
        values = {name: c.figures[name][y][key] for name in names}
        years = (y, y + 1) if tag == "magnitudes" else (y,)
        refs = tuple((c.reports[name, ry], tag) for name in names for ry in years if ry in YEARS)
        out.append(_Question("comparacion", template.format(y=y, names=_listing(names)), _best(values, better, dec,
                                                                                              unit), refs))  # fmt: skip
    y = _pick(rng, YEARS)
    values = {name: c.figures[name][y]["rev"] for name in issuers}
    out.append(
        _Question(
            "comparacion",
            f"De {_listing(issuers).replace(' o ', ' y ')}, ¿cuál facturó más en {y}?",
            _best(values, max, 1, "M€"),
            tuple((c.reports[name, ry], "magnitudes") for name in issuers for ry in YEARS if ry in (y, y + 1)),
        )
    )
    funds = {fund.name: fund for fund in FUNDS}
    charges = {name: c.funds[name]["charges2024"] for name in funds}
    out.append(
        _Question(
            "comparacion",
            _pick(rng, (
                f"¿Qué ETF de {MANAGER} tiene los gastos corrientes más bajos según los KID de 2024?",
                f"Entre los fondos cotizados de {MANAGER}, ¿cuál es el más barato en gastos corrientes (KID de 2024)?",
            )),  # fmt: skip
            _best(charges, min, 2, "%"),
            tuple((c.kids[name, 2024], "composicion") for name in funds),
        )
    )
    charges = {name: c.funds[name]["charges2023"] for name in funds}
    out.append(
        _Question(
            "comparacion",
            f"Según sus documentos de datos fundamentales de 2023, ¿qué ETF de {MANAGER} tenía los gastos corrientes "
            "más altos?",
            _best(charges, max, 2, "%"),
            tuple((c.kids[name, 2023], "composicion") for name in funds),
        )
    )
    changed = [f"{name} (de {f.sri[0]} a {f.sri[1]})" for name, f in funds.items() if f.sri[0] != f.sri[1]]
    out.append(
        _Question(
            "comparacion",
            f"¿Qué ETF de {MANAGER} cambió de clase de riesgo entre su KID de 2023 y el de 2024?",
            " y ".join(changed),
            tuple((c.kids[name, year], "sri") for name in funds for year in (2023, 2024)),
        )
    )
    out.append(
        _Question(
            "comparacion",
            f"¿Cuál es el ETF de {MANAGER} con el indicador de riesgo más bajo en los KID de 2024?",
            _best({name: fund.sri[1] for name, fund in funds.items()}, min, 0, "de 7"),
            tuple((c.kids[name, 2024], "sri") for name in funds),
        )
    )
    launches = {name: fund.launch for name, fund in funds.items()}
    oldest = min(launches, key=launches.get)
    out.append(
        _Question(
            "comparacion",
            _pick(rng, (f"¿Cuál es el ETF más antiguo de {MANAGER}?",
                        f"¿Qué fondo cotizado de {MANAGER} se lanzó primero?")),  # fmt: skip
            f"{oldest} (lanzado el {_fecha(launches[oldest])})",
            tuple((c.prospectuses[name], "datos") for name in funds),
        )
    )
    out.append(
        _Question(
            "comparacion",
            f"Según sus folletos, ¿qué ETF de {MANAGER} tiene mayor patrimonio?",
            _best({name: c.funds[name]["aum"] for name in funds}, max, 1, "M€"),
            tuple((c.prospectuses[name], "datos") for name in funds),
        )
    )
    for year in (2023, 2024):
        notes = {name: doc for (name, y), doc in c.research.items() if y == year}
        out.append(
            _Question(
                "comparacion",
                f"Según las notas de {BROKER} de marzo de {year}, ¿qué compañía tenía mayor potencial de "
                "revalorización?",
                " y ".join(
                    f"{name} (potencial de {_signed(doc.meta['upside'])} %)"
                    for name, doc in notes.items()
                    if doc.meta["upside"] == max(d.meta["upside"] for d in notes.values())
                ),
                tuple((doc, "recomendacion") for doc in notes.values()),
            )
        )
    return out


def _unanswerable(c: _Corpus, rng: np.random.Generator) -> list[_Question]:
    """Plausible questions that no document answers (a year, a period or a figure not covered)."""
    issuers = [issuer.name for issuer in ISSUERS]
    covered = sorted({name for name, _ in c.research})
    uncovered = [name for name in issuers if name not in covered]
    i1, i2, i3, i4, i5 = (issuers[k] for k in rng.permutation(len(issuers))[:5])
    f1, f2, f3, f4 = (FUNDS[k] for k in rng.permutation(len(FUNDS))[:4])
    r = c.reports
    cases = (
        (f"¿Cuál fue el beneficio neto de {i1} en 2020?", (r[i1, 2022],)),
        (f"¿Qué ingresos obtuvo {i2} en 2020 según sus principales magnitudes?", (r[i2, 2022],)),
        (f"¿Qué ingresos obtuvo {i3} en el primer trimestre de 2023?", (r[i3, 2023],)),
        (f"¿Cuál fue la retribución total del primer ejecutivo de {i4} en 2023?", (r[i4, 2023],)),
        (f"¿Qué calificación crediticia otorgan las agencias de rating a {i5}?", (r[i5, 2022], r[i5, 2023])),
        (f"¿Cuántos empleados tenía {i1} en 2019?", (r[i1, 2022],)),
        (f"¿Qué cuota de mercado tiene {i2} en España?", (r[i2, 2023],)),
        (f"¿Qué precio objetivo fija {BROKER} para {uncovered[0]}?", (r[uncovered[0], 2023],)),
        (f"¿Qué dividendo repartirá {uncovered[0]} con cargo a 2025?", (r[uncovered[0], 2023],)),
        (f"¿Qué rentabilidad obtuvo el {f1.short} en 2023?", (c.kids[f1.name, 2024], c.prospectuses[f1.name])),
        (f"¿Qué gastos corrientes tenía el {f2.short} en 2021?", (c.kids[f2.name, 2023],)),
        (f"¿Qué patrimonio tenía el {f3.short} a 31 de diciembre de 2023?", (c.prospectuses[f3.name],)),
        (f"¿Cuál fue el valor liquidativo del {f4.short} el último día de 2023?", (c.kids[f4.name, 2024],)),
        (f"¿Qué precio objetivo tenía {BROKER} para {covered[0]} en 2022?",
         (c.research[covered[0], 2023], c.research[covered[0], 2024])),
        (f"¿Cuántas tiendas tenía {ISSUERS[0].name} en 2019?", (r[ISSUERS[0].name, 2022],)),
    )  # fmt: skip
    return [_Question("no_respondible", question, UNANSWERABLE, docs=docs) for question, docs in cases]
