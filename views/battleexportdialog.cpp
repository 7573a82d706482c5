#include "battleexportdialog.h"

#include "data/gamedata.h"
#include "rules/state.h"
#include "tactical/tercios.h"
#include "tactical/tvbd.h"
#include "theme.h"

#include <QBuffer>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QMap>
#include <QMessageBox>
#include <QPainter>
#include <QPainterPath>
#include <QPdfWriter>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QSvgGenerator>
#include <QTextBrowser>
#include <QTextDocument>
#include <QVBoxLayout>

namespace wp {

namespace {

QPointF pt(const QJsonValue& v) {
    const QJsonArray a = v.toArray();
    return {a.at(0).toDouble(), a.at(1).toDouble()};
}

QColor terrainColor(const QString& type) {
    if (type.contains(QLatin1String("ill")))
        return QColor(0xc8, 0xb0, 0x80);
    if (type.contains(QLatin1String("wood")) || type.contains(QLatin1String("forest")))
        return QColor(0x6f, 0x94, 0x5a);
    if (type.contains(QLatin1String("marsh")) || type.contains(QLatin1String("river")) ||
        type.contains(QLatin1String("stream")))
        return QColor(0x7d, 0xa7, 0xc4);
    if (type.contains(QLatin1String("town")) || type.contains(QLatin1String("village")) ||
        type.contains(QLatin1String("building")))
        return QColor(0xa0, 0x60, 0x50);
    if (type.contains(QLatin1String("road")))
        return QColor(0x8a, 0x74, 0x55);
    if (type.contains(QLatin1String("bridge")) || type.contains(QLatin1String("ford")))
        return QColor(0x9a, 0x8c, 0x78);
    if (type.contains(QLatin1String("wall")) || type.contains(QLatin1String("fortification")))
        return QColor(0x6a, 0x5a, 0x4a);
    return QColor(0xd8, 0xcc, 0x8a); // fields and anything else
}

// A name on the table map, at `at` in table units, in a font sized to the drawing (not the table scale).
void label(QPainter& p, QPointF at, const QString& text, const QRectF& r) {
    if (text.isEmpty())
        return;
    const QPointF dev = p.transform().map(at);
    p.save();
    p.resetTransform();
    QFont f = theme::sans(8);
    f.setPixelSize(std::max(9, int(r.height() / 48)));
    f.setItalic(true);
    p.setFont(f);
    const QRectF box = QFontMetricsF(f).boundingRect(text).adjusted(-3, -1, 3, 1);
    const QRectF place(dev - QPointF(box.width() / 2, box.height() / 2), box.size());
    p.setPen(Qt::NoPen);
    p.setBrush(QColor(255, 255, 255, 170));
    p.drawRoundedRect(place, 3, 3);
    p.setPen(theme::ink());
    p.drawText(place, Qt::AlignCenter, text);
    p.restore();
}

// A point a little way back from a line's end toward its start (where a road leaves the table).
QPointF nearEnd(const QJsonArray& pts, double back) {
    const QPointF a = pt(pts.at(pts.size() - 2)), b = pt(pts.last());
    const QPointF d = a - b;
    const double len = std::hypot(d.x(), d.y());
    return len > 0 ? b + d * std::min(1.0, back / len) : b;
}

} // namespace

TablePreview::TablePreview(QWidget* parent) : QWidget(parent) {
    setMinimumSize(360, 240);
}

void TablePreview::setScenario(const QJsonObject& o) {
    m_o = o;
    update();
}

void TablePreview::paintTercios(QPainter& p, const QRectF& r) const {
    const QJsonObject table = m_o.value(QStringLiteral("table")).toObject();
    const double w = std::max(1.0, table.value(QStringLiteral("w")).toDouble(72)),
                 d = std::max(1.0, table.value(QStringLiteral("d")).toDouble(48));
    const QRectF area = r.adjusted(10, 10, -10, -10);
    const double scale = std::min(area.width() / w, area.height() / d);
    p.translate(area.center() - QPointF(w * scale / 2, d * scale / 2));
    p.scale(scale, scale);
    p.fillRect(QRectF(0, 0, w, d), QColor(0xe9, 0xe2, 0xb8));
    // Roads (no Tercios terrain: drawn for the look only), under the terrain.
    for (const auto& t : m_o.value(QStringLiteral("decor")).toArray()) {
        QPainterPath path;
        const QJsonArray pts = t.toObject().value(QStringLiteral("line")).toArray();
        for (int i = 0; i < pts.size(); ++i)
            i == 0 ? path.moveTo(pt(pts[i])) : path.lineTo(pt(pts[i]));
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(terrainColor(QStringLiteral("road")), 1.0, Qt::SolidLine, Qt::RoundCap));
        p.drawPath(path);
    }
    QList<QJsonObject> pieces; // the bridges and fords over the river: last
    for (const auto& t : m_o.value(QStringLiteral("terrain")).toArray())
        pieces << t.toObject();
    std::stable_sort(pieces.begin(), pieces.end(), [](const QJsonObject& a, const QJsonObject& b) {
        const auto crossing = [](const QJsonObject& o) {
            const QString t = o.value(QStringLiteral("type")).toString();
            return t == QLatin1String("Bridge") || t == QLatin1String("Ford");
        };
        return !crossing(a) && crossing(b);
    });
    for (const QJsonObject& to : pieces) {
        const QColor col = terrainColor(to.value(QStringLiteral("type")).toString().toLower());
        if (to.contains(QStringLiteral("polygon"))) {
            QPolygonF poly;
            for (const auto& v : to.value(QStringLiteral("polygon")).toArray())
                poly << pt(v);
            p.setPen(QPen(col.darker(140), 0.2));
            p.setBrush(col);
            p.drawPolygon(poly);
        } else {
            QPainterPath path;
            const QJsonArray pts = to.value(QStringLiteral("line")).toArray();
            for (int i = 0; i < pts.size(); ++i)
                i == 0 ? path.moveTo(pt(pts[i])) : path.lineTo(pt(pts[i]));
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(col, std::max(0.4, to.value(QStringLiteral("width")).toDouble(0.6)), Qt::SolidLine,
                          Qt::FlatCap));
            p.drawPath(path);
        }
    }
    // Names: the town (a Building named after the city) and where each road leaves the table.
    for (const auto& t : m_o.value(QStringLiteral("terrain")).toArray()) {
        const QJsonObject to = t.toObject();
        if (to.value(QStringLiteral("type")).toString() != QLatin1String("Building"))
            continue;
        QPointF c;
        const QJsonArray poly = to.value(QStringLiteral("polygon")).toArray();
        for (const auto& v : poly)
            c += pt(v) / double(std::max<qsizetype>(1, poly.size()));
        label(p, c, to.value(QStringLiteral("id")).toString(), r);
    }
    for (const auto& t : m_o.value(QStringLiteral("decor")).toArray()) {
        const QJsonArray pts = t.toObject().value(QStringLiteral("line")).toArray();
        if (pts.size() >= 2)
            label(p, nearEnd(pts, 5), t.toObject().value(QStringLiteral("name")).toString(), r);
    }
    for (const auto& reg : m_o.value(QStringLiteral("regiments")).toArray()) {
        const QJsonObject ro = reg.toObject();
        const int side = ro.value(QStringLiteral("side")).toInt();
        const QColor col = theme::sideColor(side == 0 ? m_attacker : 1 - m_attacker);
        for (const auto& u : ro.value(QStringLiteral("units")).toArray()) {
            const QJsonObject uo = u.toObject();
            p.save();
            p.translate(uo.value(QStringLiteral("x")).toDouble(), uo.value(QStringLiteral("y")).toDouble());
            p.rotate(uo.value(QStringLiteral("facing")).toDouble());
            p.setPen(QPen(col.darker(150), 0.15));
            p.setBrush(col);
            p.drawRect(QRectF(-1.5, -3, 3, 6)); // facing +x: the frontage along y
            p.restore();
        }
    }
}

void TablePreview::paintEvent(QPaintEvent*) {
    QPainter p(this);
    paintOn(p, rect());
}

void TablePreview::paintOn(QPainter& p, const QRectF& r) const {
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(r, theme::parchmentDark());
    if (m_o.isEmpty()) {
        p.restore();
        return;
    }
    if (m_tercios) {
        paintTercios(p, r);
        p.restore();
        return;
    }
    // The table's extent: the deployment zones and everything placed on it.
    QRectF box(0, 0, 1, 1);
    const QJsonObject dep = m_o.value(QStringLiteral("deployment")).toObject();
    const QPointF z0 = pt(dep.value(QStringLiteral("side0"))), z1 = pt(dep.value(QStringLiteral("side1")));
    const QPointF cz = pt(dep.value(QStringLiteral("centreZone")));
    box = box.united(QRectF(0, 0, cz.y() + cz.x(), std::max(z0.y(), z1.y())));
    const QJsonArray terrain = m_o.value(QStringLiteral("terrain")).toArray();
    const QJsonArray commands = m_o.value(QStringLiteral("commands")).toArray();
    for (const auto& c : commands)
        for (const auto& u : c.toObject().value(QStringLiteral("units")).toArray()) {
            const QJsonObject uo = u.toObject();
            box = box.united(QRectF(uo.value(QStringLiteral("x")).toDouble(),
                                    uo.value(QStringLiteral("y")).toDouble(), 1, 1));
        }
    const QRectF area = r.adjusted(10, 10, -10, -10);
    const double scale = std::min(area.width() / box.width(), area.height() / box.height());
    p.translate(area.center() - QPointF(box.width() * scale / 2, box.height() * scale / 2));
    p.scale(scale, scale);
    p.fillRect(QRectF(0, 0, box.width(), box.height()), QColor(0xe9, 0xe2, 0xb8));
    // deployment zones in each side's tint
    QColor tint0 = theme::sideColor(m_attacker), tint1 = theme::sideColor(1 - m_attacker);
    tint0.setAlpha(40);
    tint1.setAlpha(40);
    p.fillRect(QRectF(0, z0.x(), box.width(), z0.y() - z0.x()), tint0);
    p.fillRect(QRectF(0, z1.x(), box.width(), z1.y() - z1.x()), tint1);
    // Out-of-season fields (no effect, 8.2): faint, under everything; then roads, water, the rest, and the
    // bridges and fords over the water.
    QList<QJsonObject> pieces;
    for (const auto& t : m_o.value(QStringLiteral("decor")).toArray()) {
        QJsonObject o = t.toObject();
        o.insert(QStringLiteral("faint"), true);
        pieces << o;
    }
    const auto layer = [](const QJsonObject& o) {
        const QString t = o.value(QStringLiteral("type")).toString();
        if (o.value(QStringLiteral("faint")).toBool())
            return 0;
        if (t == QLatin1String("road"))
            return 1;
        if (t == QLatin1String("river") || t == QLatin1String("stream"))
            return 2;
        if (t == QLatin1String("bridge") || t == QLatin1String("ford"))
            return 4;
        return 3;
    };
    for (const auto& t : terrain)
        pieces << t.toObject();
    std::stable_sort(pieces.begin(), pieces.end(),
                     [&](const QJsonObject& a, const QJsonObject& b) { return layer(a) < layer(b); });
    for (const QJsonObject& to : pieces) {
        const QString shape = to.value(QStringLiteral("shape")).toString();
        QColor col = terrainColor(to.value(QStringLiteral("type")).toString());
        if (to.value(QStringLiteral("faint")).toBool())
            col.setAlpha(70);
        p.setPen(QPen(col.darker(140), 0.15));
        p.setBrush(col);
        if (to.value(QStringLiteral("id")).toString() == QLatin1String("closed-town")) // 5.13: the shut town
            p.setBrush(QBrush(terrainColor(QStringLiteral("town")).darker(160), Qt::DiagCrossPattern));
        if (shape == QLatin1String("ellipse")) {
            p.drawEllipse(pt(to.value(QStringLiteral("centre"))), to.value(QStringLiteral("rx")).toDouble(),
                          to.value(QStringLiteral("ry")).toDouble());
        } else if (shape == QLatin1String("rect")) {
            const QPointF c = pt(to.value(QStringLiteral("centre")));
            const double w = to.value(QStringLiteral("w")).toDouble(),
                         d = to.value(QStringLiteral("d")).toDouble();
            p.drawRect(QRectF(c.x() - w / 2, c.y() - d / 2, w, d));
        } else {
            QPainterPath path;
            const QJsonArray pts = to.value(QStringLiteral("points")).toArray();
            for (int i = 0; i < pts.size(); ++i)
                i == 0 ? path.moveTo(pt(pts[i])) : path.lineTo(pt(pts[i]));
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(col, to.value(QStringLiteral("width")).toDouble(0.8), Qt::SolidLine, Qt::FlatCap));
            p.drawPath(path);
        }
    }
    // Names: the town, the water, where each road leaves the table.
    for (const QJsonObject& to : pieces) {
        const QString type = to.value(QStringLiteral("type")).toString(),
                      name = to.value(QStringLiteral("name")).toString();
        const QJsonArray pts = to.value(QStringLiteral("points")).toArray();
        if (type == QLatin1String("town"))
            label(p, pt(to.value(QStringLiteral("centre"))), name, r);
        else if ((type == QLatin1String("river") || type == QLatin1String("stream")) && pts.size() >= 2)
            label(p, (pt(pts.at(pts.size() / 2 - 1)) + pt(pts.at(pts.size() / 2))) / 2, name, r);
        else if (type == QLatin1String("road") && pts.size() >= 2)
            label(p, nearEnd(pts, 3), name, r);
    }
    for (const auto& c : commands) {
        const QJsonObject co = c.toObject();
        const int side = co.value(QStringLiteral("side")).toInt();
        const QColor col = theme::sideColor(side == 0 ? m_attacker : 1 - m_attacker);
        for (const auto& u : co.value(QStringLiteral("units")).toArray()) {
            const QJsonObject uo = u.toObject();
            const QPointF at(uo.value(QStringLiteral("x")).toDouble(),
                             uo.value(QStringLiteral("y")).toDouble());
            p.setPen(QPen(col.darker(150), 0.1));
            p.setBrush(col);
            if (uo.value(QStringLiteral("type")).toString() == QLatin1String("Commander"))
                p.drawEllipse(at, 0.5, 0.5);
            else if (uo.value(QStringLiteral("large")).toBool()) // 16.2: two stands back to back
                p.drawRect(QRectF(at.x() - 1.1, at.y() - 0.9, 2.2, 1.8));
            else
                p.drawRect(QRectF(at.x() - 1.1, at.y() - 0.4, 2.2, 0.8));
        }
    }
    p.restore();
}

BattleExportDialog::BattleExportDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(QStringLiteral("Export the battle"));
    setObjectName(QStringLiteral("battleExportDialog"));
    auto* lay = new QVBoxLayout(this);
    m_title = new QLabel(this);
    m_title->setFont(theme::serif(14, true));
    m_title->setWordWrap(true);
    lay->addWidget(m_title);
    auto* row = new QHBoxLayout();
    m_preview = new TablePreview(this);
    row->addWidget(m_preview, 1);
    m_summary = new QTextBrowser(this);
    m_summary->setObjectName(QStringLiteral("battleSummary"));
    m_summary->setMinimumWidth(380);
    row->addWidget(m_summary, 1);
    lay->addLayout(row, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_rules = new QComboBox(this);
    m_rules->setObjectName(QStringLiteral("battleRules"));
    m_rules->addItem(QStringLiteral("Tilly's Very Bad Day v2.0"), QStringLiteral("tvbd"));
    m_rules->addItem(QStringLiteral("Brevis Editio: Tercios"), QStringLiteral("tercios"));
    connect(m_rules, &QComboBox::currentIndexChanged, this, [this](int) {
        if (!m_in.title.isEmpty() || !m_in.city.isEmpty())
            generate();
    });
    auto* bottom = new QHBoxLayout();
    bottom->addWidget(new QLabel(QStringLiteral("Rules"), this));
    bottom->addWidget(m_rules);
    bottom->addStretch(1);
    m_terrain = buttons->addButton(QStringLiteral("Another terrain"), QDialogButtonBox::ActionRole);
    m_save = buttons->addButton(QStringLiteral("Save TVBD scenario (JSON)…"), QDialogButtonBox::AcceptRole);
    m_save->setProperty("primary", true);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_save, &QPushButton::clicked, this, &BattleExportDialog::saveAs);
    connect(m_terrain, &QPushButton::clicked, this, [this]() {
        ++m_seed;
        generate();
    });
    bottom->addWidget(buttons);
    lay->addLayout(bottom);
    resize(1000, 560);
}

bool BattleExportDialog::setBattle(const GameData& d, const rules::GameState& s, quint64 seed) {
    m_seed = seed;
    m_mappingPath.clear();
    m_out = {};
    m_attacker = 0;
    if (!s.frames.empty())
        if (const auto* f = std::get_if<rules::CombatFrame>(&s.frames.back()))
            m_attacker = f->attacker;
    m_preview->setAttacker(m_attacker);
    m_error.clear();
    if (!battle::inputFromState(d, s, &m_in, &m_error)) {
        m_title->setText(QStringLiteral("No battle to export"));
        m_summary->setPlainText(m_error);
        m_preview->setScenario({});
        m_save->setEnabled(false);
        m_terrain->setEnabled(false);
        return false;
    }
    generate();
    return m_error.isEmpty();
}

bool BattleExportDialog::setInput(const battle::BattleInput& in, quint64 seed, const QString& mappingPath,
                                  int attacker) {
    m_seed = seed;
    m_out = {};
    m_in = in;
    m_mappingPath = mappingPath;
    m_attacker = attacker;
    m_preview->setAttacker(m_attacker);
    m_error.clear();
    generate();
    return m_error.isEmpty();
}

bool BattleExportDialog::tercios() const {
    return m_rules->currentData().toString() == QLatin1String("tercios");
}

void BattleExportDialog::generateTercios() {
    m_preview->setTercios(true);
    const tactical::TerciosRules* rules = tactical::defaultTerciosRules(&m_error);
    battle::TerciosMapping mapping;
    if (!rules ||
        !battle::loadTerciosMapping(m_mappingPath.isEmpty() ? battle::defaultMappingPath() : m_mappingPath,
                                    &mapping, &m_error)) {
        m_title->setText(QStringLiteral("The battle cannot be exported"));
        m_summary->setPlainText(m_error +
                                QStringLiteral("\n\nCheck the game data with 'westphalia-cli data check'."));
        m_save->setEnabled(false);
        return;
    }
    m_error.clear();
    m_out = battle::exportTercios(m_in, mapping, *rules, m_seed);
    tactical::TerciosState st;
    QString why;
    if (!tactical::terciosScenarioFromJson(m_out, QStringLiteral("export"), *rules, &st, &why)) {
        m_error = QStringLiteral("internal error: the export does not load: %1").arg(why);
    } else {
        for (int side = 0; side < 2; ++side) {
            const QStringList pr = tactical::armyProblems(*rules, tactical::armyOf(st, side, st.pointsLimit));
            if (!pr.isEmpty())
                m_error += QStringLiteral("internal error: army %1 is not legal: %2 ")
                               .arg(side)
                               .arg(pr.join(QStringLiteral("; ")));
        }
    }
    const QJsonObject table = m_out.value(QStringLiteral("table")).toObject();
    m_title->setText(QStringLiteral("%1 — Brevis Editio: Tercios, %2×%3 in table, %4 points a side")
                         .arg(m_in.title)
                         .arg(table.value(QStringLiteral("w")).toDouble())
                         .arg(table.value(QStringLiteral("d")).toDouble())
                         .arg(m_out.value(QStringLiteral("pointsLimit")).toInt()));
    m_preview->setScenario(m_out);
    QString html = QStringLiteral("<p><b>%1</b>, %2 (Area %3), seed %4, %5 turns</p>")
                       .arg(m_in.city.toHtmlEscaped())
                       .arg(m_in.year)
                       .arg(m_in.area.toHtmlEscaped())
                       .arg(m_seed)
                       .arg(m_out.value(QStringLiteral("turnLimit")).toInt());
    const QJsonArray sides = m_out.value(QStringLiteral("sides")).toArray();
    const int attacker = m_out.value(QStringLiteral("attacker")).toInt();
    for (int side = 0; side < 2; ++side) {
        const QJsonObject so = sides.at(side).toObject();
        html += QStringLiteral("<h3 style='color:%1'>%2 %3</h3><p>faction %4; %5 campaign unit(s)</p><ul>")
                    .arg(theme::sideDark(side == 0 ? m_attacker : 1 - m_attacker).name())
                    .arg(so.value(QStringLiteral("name")).toString().toHtmlEscaped())
                    .arg(side == attacker ? QStringLiteral("(attacks)") : QStringLiteral("(defends)"))
                    .arg(so.value(QStringLiteral("faction")).toString().toHtmlEscaped())
                    .arg(m_in.sides[side].units.size());
        for (const auto& r : m_out.value(QStringLiteral("regiments")).toArray()) {
            const QJsonObject ro = r.toObject();
            if (ro.value(QStringLiteral("side")).toInt() != side)
                continue;
            QMap<QString, int> kinds;
            for (const auto& u : ro.value(QStringLiteral("units")).toArray())
                kinds[u.toObject().value(QStringLiteral("profile")).toString()]++;
            QStringList parts;
            for (auto it = kinds.begin(); it != kinds.end(); ++it)
                parts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
            html += QStringLiteral("<li><b>%1</b> (%2): %3</li>")
                        .arg(ro.value(QStringLiteral("name")).toString().toHtmlEscaped(),
                             ro.value(QStringLiteral("def")).toString().toHtmlEscaped(),
                             parts.join(QStringLiteral(", ")).toHtmlEscaped());
        }
        html += QStringLiteral("</ul>");
    }
    html += QStringLiteral("<h3>Terrain</h3><ul>");
    for (const auto& t : m_out.value(QStringLiteral("terrain")).toArray()) {
        const QJsonObject to = t.toObject();
        const QString id = to.value(QStringLiteral("id")).toString();
        html += QStringLiteral("<li>%1</li>")
                    .arg((to.value(QStringLiteral("type")).toString() +
                          (id.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(id)))
                             .toHtmlEscaped());
    }
    html += QStringLiteral("</ul><h3>Notes and special rules</h3><ul>");
    for (const auto& n : m_out.value(QStringLiteral("notes")).toArray())
        html += QStringLiteral("<li>%1</li>").arg(n.toString().toHtmlEscaped());
    html += QStringLiteral("</ul>");
    if (!m_error.isEmpty())
        html += QStringLiteral("<p style='color:#a01010'>%1</p>").arg(m_error.toHtmlEscaped());
    m_summary->setHtml(html);
    m_save->setText(QStringLiteral("Save Tercios scenario (JSON)…"));
    m_save->setEnabled(m_error.isEmpty());
    m_terrain->setEnabled(true);
}

void BattleExportDialog::generate() {
    if (tercios()) {
        generateTercios();
        return;
    }
    m_preview->setTercios(false);
    m_save->setText(QStringLiteral("Save TVBD scenario (JSON)…"));
    const tactical::TvbdRules* rules = tactical::defaultTvbdRules(&m_error);
    battle::TvbdMapping mapping;
    if (!rules || !battle::loadMapping(m_mappingPath.isEmpty() ? battle::defaultMappingPath() : m_mappingPath,
                                       &mapping, &m_error)) {
        m_title->setText(QStringLiteral("The battle cannot be exported"));
        m_summary->setPlainText(m_error +
                                QStringLiteral("\n\nCheck the game data with 'westphalia-cli data check'."));
        m_save->setEnabled(false);
        return;
    }
    m_error.clear();
    m_out = battle::exportTvbd(m_in, mapping, *rules, m_seed);
    tactical::BattleState st;
    QString why;
    if (!tactical::scenarioFromJson(m_out, QStringLiteral("export"), *rules, &st, &why))
        m_error = QStringLiteral("internal error: the export does not load: %1").arg(why);
    m_title->setText(QStringLiteral("%1 — Tilly's Very Bad Day v2.0, %2 table")
                         .arg(m_in.title, m_out.value(QStringLiteral("size")).toString()));
    m_preview->setScenario(m_out);

    QString html;
    const QJsonObject camp = m_out.value(QStringLiteral("campaign")).toObject();
    html +=
        QStringLiteral("<p><b>%1</b>, %2%3 (Area %4), seed %5</p>")
            .arg(camp.value(QStringLiteral("city")).toString().toHtmlEscaped())
            .arg(camp.value(QStringLiteral("year")).toInt())
            .arg(camp.value(QStringLiteral("fortress")).toBool() ? QStringLiteral(", a fortress") : QString())
            .arg(camp.value(QStringLiteral("area")).toString().toHtmlEscaped())
            .arg(m_seed);
    const QJsonArray sides = m_out.value(QStringLiteral("sides")).toArray();
    const int attacker = m_out.value(QStringLiteral("attacker")).toInt();
    for (int side = 0; side < 2; ++side) {
        html +=
            QStringLiteral("<h3 style='color:%1'>%2 %3</h3><p>%4 campaign unit(s), %5 leader(s)%6</p><ul>")
                .arg(theme::sideDark(side == 0 ? m_attacker : 1 - m_attacker).name()) // TVBD side 0 attacks
                .arg(sides.at(side).toObject().value(QStringLiteral("name")).toString().toHtmlEscaped())
                .arg(side == attacker ? QStringLiteral("(attacks)") : QStringLiteral("(defends)"))
                .arg(m_in.sides[side].units.size())
                .arg(m_in.sides[side].leaders.size())
                .arg(m_in.sides[side].cards.isEmpty()
                         ? QString()
                         : QStringLiteral("; cards played: ") +
                               m_in.sides[side].cards.join(QStringLiteral(", ")).toHtmlEscaped());
        for (const auto& c : m_out.value(QStringLiteral("commands")).toArray()) {
            const QJsonObject co = c.toObject();
            if (co.value(QStringLiteral("side")).toInt() != side)
                continue;
            QMap<QString, int> kinds;
            for (const auto& u : co.value(QStringLiteral("units")).toArray()) {
                const QJsonObject uo = u.toObject();
                const QString q = uo.value(QStringLiteral("quality")).toString();
                kinds[(uo.value(QStringLiteral("large")).toBool() ? QStringLiteral("Large ") : QString()) +
                      uo.value(QStringLiteral("type")).toString() +
                      (q.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(q))]++;
            }
            QStringList parts;
            for (auto it = kinds.begin(); it != kinds.end(); ++it)
                parts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
            html += QStringLiteral("<li><b>%1</b>: %2</li>")
                        .arg(co.value(QStringLiteral("name")).toString().toHtmlEscaped(),
                             parts.join(QStringLiteral(", ")).toHtmlEscaped());
        }
        html += QStringLiteral("</ul>");
    }
    html += QStringLiteral("<h3>Terrain</h3><ul>");
    for (const auto& t : m_out.value(QStringLiteral("terrain")).toArray()) {
        const QJsonObject to = t.toObject();
        QString type = to.value(QStringLiteral("type")).toString();
        type.replace(QRegularExpression(QStringLiteral("([a-z])([A-Z])")), QStringLiteral("\\1 \\2"));
        type = type.toLower();
        const QString name = to.value(QStringLiteral("name")).toString();
        html += QStringLiteral("<li>%1</li>")
                    .arg((name.isEmpty() ? type : QStringLiteral("%1 (%2)").arg(name, type)).toHtmlEscaped());
    }
    html += QStringLiteral("</ul><h3>Notes and special rules</h3><ul>");
    for (const auto& n : m_out.value(QStringLiteral("notes")).toArray())
        html += QStringLiteral("<li>%1</li>").arg(n.toString().toHtmlEscaped());
    html += QStringLiteral("</ul>");
    if (!m_error.isEmpty())
        html += QStringLiteral("<p style='color:#a01010'>%1</p>").arg(m_error.toHtmlEscaped());
    m_summary->setHtml(html);
    m_save->setEnabled(m_error.isEmpty());
    m_terrain->setEnabled(true);
}

bool BattleExportDialog::writeTo(const QString& file, QString* error) const {
    if (m_out.isEmpty()) {
        *error = QStringLiteral("there is no battle to export");
        return false;
    }
    QSaveFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(m_out).toJson(QJsonDocument::Indented)) < 0 ||
        !f.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(file, f.errorString());
        return false;
    }
    return true;
}

int BattleExportDialog::paintBriefing(QPainter& p, const QRect& page, int index) const {
    QTextDocument doc;
    doc.setDefaultFont(theme::sans(9));
    QString html = m_summary->toHtml();
    html.replace(
        QStringLiteral("</body>"),
        QStringLiteral("<h3>Roster and casualties</h3><table border='1' cellpadding='4' "
                       "width='100%'><tr><th>Unit</th><th>Losses</th><th>Notes</th></tr>%1"
                       "</table></body>")
            .arg(QString(QStringLiteral("<tr><td>&nbsp;</td><td></td><td></td></tr>")).repeated(12)));
    doc.setHtml(html);
    doc.setPageSize(QSizeF(page.width(), page.height()));
    const int pages = 1 + doc.pageCount();
    p.save();
    p.fillRect(page, Qt::white);
    if (index == 0) {
        // Page 1: the title and the table.
        p.setFont(theme::serif(18, true));
        p.setPen(theme::ink());
        const QRect titleRect(page.left(), page.top(), page.width(), page.height() / 10);
        p.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, m_title->text());
        m_preview->paintOn(p, QRectF(page.left(), titleRect.bottom() + 10, page.width(),
                                     page.height() - titleRect.height() - 10));
    } else if (index < pages) {
        // The following pages: the orders of battle, terrain, special rules and a casualty roster.
        const int k = index - 1;
        p.translate(page.left(), page.top() - k * page.height());
        doc.drawContents(&p, QRectF(0, k * page.height(), page.width(), page.height()));
    }
    p.restore();
    return pages;
}

QImage BattleExportDialog::briefingPage(int index, const QSize& size) const {
    QImage img(size, QImage::Format_RGB32);
    img.fill(Qt::white);
    QPainter p(&img);
    paintBriefing(p, QRect(QPoint(0, 0), size), index);
    return img;
}

bool BattleExportDialog::writePdf(const QString& file, QString* error) const {
    if (m_out.isEmpty()) {
        *error = QStringLiteral("there is no battle to export");
        return false;
    }
    // Written to a temporary name and renamed, so a failed write leaves no half file under the name.
    const QString tmp = file + QStringLiteral(".part");
    {
        QPdfWriter pdf(tmp);
        pdf.setPageSize(QPageSize(QPageSize::A4));
        pdf.setPageOrientation(QPageLayout::Landscape);
        pdf.setResolution(150);
        pdf.setTitle(m_title->text());
        pdf.setCreator(QStringLiteral("Westphalia"));
        QPainter p;
        if (!p.begin(&pdf)) {
            *error = QStringLiteral("%1: cannot write the PDF").arg(file);
            return false;
        }
        const QRect page = p.viewport();
        const int pages = paintBriefing(p, page, 0);
        for (int k = 1; k < pages; ++k) {
            pdf.newPage();
            paintBriefing(p, page, k);
        }
        p.end();
    }
    QFile::remove(file);
    if (!QFile::rename(tmp, file)) {
        QFile::remove(tmp);
        *error = QStringLiteral("%1: cannot write the PDF").arg(file);
        return false;
    }
    return true;
}

bool BattleExportDialog::writeSvg(const QString& file, QString* error) const {
    if (m_out.isEmpty()) {
        *error = QStringLiteral("there is no battle to export");
        return false;
    }
    QBuffer buf;
    buf.open(QIODevice::WriteOnly);
    {
        QSvgGenerator svg;
        svg.setOutputDevice(&buf);
        svg.setSize(QSize(1200, 800));
        svg.setViewBox(QRect(0, 0, 1200, 800));
        svg.setTitle(m_title->text());
        QPainter p(&svg);
        m_preview->paintOn(p, QRectF(0, 0, 1200, 800));
    }
    QSaveFile f(file);
    if (!f.open(QIODevice::WriteOnly) || f.write(buf.data()) != buf.data().size() || !f.commit()) {
        *error = QStringLiteral("%1: cannot write: %2").arg(file, f.errorString());
        return false;
    }
    return true;
}

void BattleExportDialog::saveAs() {
    const QString dir = QSettings()
                            .value(QStringLiteral("files/lastDir"),
                                   QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation))
                            .toString();
    QString name = m_in.title.isEmpty() ? QStringLiteral("battle") : m_in.title;
    name.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9]+")), QStringLiteral("-"));
    const QString kind = tercios() ? QStringLiteral("tercios") : QStringLiteral("tvbd");
    const QString file = QFileDialog::getSaveFileName(
        this,
        QStringLiteral("Save the %1 scenario")
            .arg(tercios() ? QStringLiteral("Tercios") : QStringLiteral("TVBD")),
        dir + QLatin1Char('/') + name.toLower() + QLatin1Char('.') + kind + QStringLiteral(".json"),
        QStringLiteral("Battle scenarios (*.json)"));
    if (file.isEmpty())
        return;
    QString error;
    QString base = file;
    if (base.endsWith(QLatin1String(".json")))
        base.chop(5);
    // The scenario, its printable briefing and the table map, side by side.
    if (!writeTo(file, &error) || !writePdf(base + QStringLiteral(".pdf"), &error) ||
        !writeSvg(base + QStringLiteral(".svg"), &error))
        QMessageBox::warning(this, QStringLiteral("Cannot save the battle"), error);
}

} // namespace wp
