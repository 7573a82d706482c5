#include "logdock.h"

#include "theme.h"

#include <QComboBox>
#include <QFile>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QListView>
#include <QPainter>
#include <QRegularExpression>
#include <QStyledItemDelegate>
#include <QVBoxLayout>

namespace wp {

namespace {

const QRegularExpression& ruleRe() {
    static const QRegularExpression re(
        QStringLiteral("^(\\d{1,2}\\.(?:\\d+|[A-Z][a-z]?(?:\\.\\d+)?)(?:\\.\\d+)?)\\s"));
    return re;
}

const QHash<QString, QString>& rulesIndex() {
    static const QHash<QString, QString> index = [] {
        QHash<QString, QString> h;
        QFile f(QStringLiteral(":/rules/rules-index.json"));
        if (f.open(QIODevice::ReadOnly)) {
            const QJsonObject o =
                QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("rules")).toObject();
            for (auto it = o.begin(); it != o.end(); ++it)
                h.insert(it.key(), it.value().toString());
        }
        return h;
    }();
    return index;
}

class LogDelegate : public QStyledItemDelegate {
  public:
    using QStyledItemDelegate::QStyledItemDelegate;
    void paint(QPainter* p, const QStyleOptionViewItem& opt, const QModelIndex& idx) const override {
        p->save();
        p->setRenderHint(QPainter::Antialiasing, true);
        const QRectF r = opt.rect;
        const int header = idx.data(LogModel::HeaderRole).toInt();
        const QString text = idx.data(Qt::DisplayRole).toString();
        if (header == 1) {
            p->fillRect(r, QColor(0x5a, 0x46, 0x30));
            p->setPen(QColor(0xf4, 0xec, 0xd8));
            p->setFont(theme::serif(9.5, true));
            p->drawText(r.adjusted(8, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
            p->restore();
            return;
        }
        if (header == 2) {
            p->fillRect(r, QColor(0xe4, 0xd6, 0xb6));
            p->setPen(QColor(0x4a, 0x3a, 0x24));
            p->setFont(theme::sans(7.5, true));
            p->drawText(r.adjusted(8, 0, -4, 0), Qt::AlignLeft | Qt::AlignVCenter, text.toUpper());
            p->restore();
            return;
        }
        if (opt.state & QStyle::State_Selected)
            p->fillRect(r, QColor(0xe9, 0xc4, 0x6a));
        const int side = idx.data(LogModel::SideRole).toInt();
        const QString rule = idx.data(LogModel::RuleRole).toString();
        double x = r.left() + 6;
        // The side's colour bar.
        p->fillRect(QRectF(r.left(), r.top() + 2, 3, r.height() - 4),
                    side >= 0 ? theme::sideColor(side) : QColor(0xc8, 0xb0, 0x88));
        if (!rule.isEmpty()) {
            p->setFont(theme::sans(7, true));
            const double w = QFontMetricsF(p->font()).horizontalAdvance(rule) + 10;
            const QRectF pill(x, r.top() + 3, w, r.height() - 6);
            p->setPen(Qt::NoPen);
            p->setBrush(side >= 0 ? theme::sideColor(side) : QColor(0x8a, 0x75, 0x56));
            p->drawRoundedRect(pill, 4, 4);
            p->setPen(Qt::white);
            p->drawText(pill, Qt::AlignCenter, rule);
            x += w + 6;
        }
        p->setPen(theme::ink());
        p->setFont(theme::sans(8));
        const QString body = rule.isEmpty() ? text : text.mid(rule.size() + 1);
        p->drawText(QRectF(x, r.top(), r.right() - x - 4, r.height()), Qt::AlignLeft | Qt::AlignVCenter,
                    QFontMetricsF(p->font()).elidedText(body, Qt::ElideRight, r.right() - x - 4));
        p->restore();
    }
    QSize sizeHint(const QStyleOptionViewItem&, const QModelIndex& idx) const override {
        return QSize(200, idx.data(LogModel::HeaderRole).toInt() == 1 ? 24 : 20);
    }
};

} // namespace

LogModel::LogModel(QObject* parent) : QAbstractListModel(parent) {}

QString LogModel::ruleSummary(const QString& rule) {
    const auto& idx = rulesIndex();
    QString r = rule;
    while (!r.isEmpty()) {
        if (idx.contains(r))
            return QStringLiteral("<b>%1</b> %2").arg(r, idx.value(r).toHtmlEscaped());
        // 12.262 -> 12.26 -> 12.2
        if (r.contains(QLatin1Char('.')) && r.section(QLatin1Char('.'), -1).size() > 1)
            r.chop(1);
        else
            break;
    }
    return {};
}

void LogModel::setLog(const rules::Log& log, int firstTurn) {
    beginResetModel();
    m_all.clear();
    static const QRegularExpression turnRe(QStringLiteral("Turn (\\d+) begins"));
    m_all.append(
        Row{QStringLiteral("Turn %1 · %2").arg(firstTurn).arg(theme::turnYears(firstTurn)), {}, -1, 1});
    int index = -1;
    for (const rules::LogLine& l : log) {
        ++index;
        const auto t = turnRe.match(l.text);
        if (t.hasMatch()) {
            const int turn = t.captured(1).toInt();
            m_all.append(
                Row{QStringLiteral("Turn %1 · %2").arg(turn).arg(theme::turnYears(turn)), {}, -1, 1});
        } else if (l.text.startsWith(QLatin1String("6.D Action Phase"))) {
            m_all.append(Row{QStringLiteral("Action Phase"), {}, -1, 2});
        } else if (l.text.startsWith(QLatin1String("6.C"))) {
            if (m_all.isEmpty() || m_all.back().text != QLatin1String("Card Draw Phase"))
                m_all.append(Row{QStringLiteral("Card Draw Phase"), {}, -1, 2});
        }
        Row r;
        r.text = l.text;
        r.side = l.side;
        r.line = index;
        const auto m = ruleRe().match(l.text);
        if (m.hasMatch())
            r.rule = m.captured(1);
        m_all.append(r);
    }
    applyFilter();
    endResetModel();
}

void LogModel::setFilter(int side) {
    beginResetModel();
    m_filter = side;
    applyFilter();
    endResetModel();
}

void LogModel::applyFilter() {
    m_rows.clear();
    for (const Row& r : m_all)
        if (r.header || m_filter == -2 || r.side == m_filter || (m_filter >= 0 && r.side < 0))
            m_rows.append(r);
}

int LogModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

QVariant LogModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row& r = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return r.text;
    case Qt::ToolTipRole: {
        if (r.rule.isEmpty())
            return {};
        QString tip = ruleSummary(r.rule);
        return tip.isEmpty() ? QStringLiteral("Rule %1").arg(r.rule) : tip;
    }
    case SideRole:
        return r.side;
    case RuleRole:
        return r.rule;
    case HeaderRole:
        return r.header;
    case LineRole:
        return r.line;
    default:
        return {};
    }
}

LogPanel::LogPanel(QWidget* parent) : QWidget(parent) {
    auto* lay = new QVBoxLayout(this);
    lay->setContentsMargins(4, 4, 4, 4);
    lay->setSpacing(4);
    auto* row = new QHBoxLayout();
    auto* l = new QLabel(QStringLiteral("Show"), this);
    m_filter = new QComboBox(this);
    m_filter->setObjectName(QStringLiteral("logFilter"));
    m_filter->addItem(QStringLiteral("Everything"), -2);
    m_filter->addItem(QStringLiteral("Catholic"), 0);
    m_filter->addItem(QStringLiteral("Protestant"), 1);
    m_filter->addItem(QStringLiteral("General only"), -1);
    row->addWidget(l);
    row->addWidget(m_filter);
    row->addStretch(1);
    lay->addLayout(row);
    m_model = new LogModel(this);
    m_view = new QListView(this);
    m_view->setObjectName(QStringLiteral("logView"));
    m_view->setModel(m_model);
    m_view->setItemDelegate(new LogDelegate(m_view));
    m_view->setUniformItemSizes(false);
    m_view->setMouseTracking(true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QListView::customContextMenuRequested, this, [this](const QPoint& at) {
        const QModelIndex i = m_view->indexAt(at);
        emit lineMenuRequested(i.isValid() ? i.data(LogModel::LineRole).toInt() : -1,
                               m_view->viewport()->mapToGlobal(at));
    });
    lay->addWidget(m_view, 1);
    connect(m_filter, &QComboBox::currentIndexChanged, this, [this](int) {
        m_model->setFilter(m_filter->currentData().toInt());
        m_view->scrollToBottom();
    });
}

void LogPanel::setLog(const rules::Log& log, int firstTurn) {
    m_model->setLog(log, firstTurn);
    m_view->scrollToBottom();
}

} // namespace wp
