#include "cardbrowser.h"

#include "cardpainter.h"
#include "theme.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPainter>
#include <QVBoxLayout>

namespace wp {

CardView::CardView(const GameData& gameData, QWidget* parent) : QWidget(parent), d(gameData) {
    setMinimumSize(300, 433);
}

void CardView::setCard(int card, const QString& badge) {
    m_card = card;
    m_badge = badge;
    update();
}

void CardView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (m_card < 0)
        return;
    double w = width() - 16, h = w * 26 / 18;
    if (h > height() - 16) {
        h = height() - 16;
        w = h * 18 / 26;
    }
    CardLook look;
    look.badge = m_badge;
    paintCard(p, QRectF((width() - w) / 2, 8, w, h), d, m_card, look);
}

CardBrowser::CardBrowser(const GameData& gameData, QWidget* parent) : QDialog(parent), d(gameData) {
    setWindowTitle(QStringLiteral("The Strategy Cards"));
    setObjectName(QStringLiteral("cardBrowser"));
    auto* lay = new QHBoxLayout(this);
    auto* left = new QVBoxLayout();
    auto* filters = new QHBoxLayout();
    m_side = new QComboBox(this);
    m_side->addItem(QStringLiteral("Both sides"), -1);
    m_side->addItem(QStringLiteral("Catholic"), 0);
    m_side->addItem(QStringLiteral("Protestant"), 1);
    m_deck = new QComboBox(this);
    m_deck->addItem(QStringLiteral("All decks"), -1);
    m_deck->addItem(QStringLiteral("Early War"), static_cast<int>(Deck::Early));
    m_deck->addItem(QStringLiteral("Intervention"), static_cast<int>(Deck::Intervention));
    m_deck->addItem(QStringLiteral("Apocalypse"), static_cast<int>(Deck::Apocalypse));
    m_deck->addItem(QStringLiteral("Combat cards"), 100);
    m_search = new QLineEdit(this);
    m_search->setPlaceholderText(QStringLiteral("Search title or event…"));
    filters->addWidget(m_side);
    filters->addWidget(m_deck);
    filters->addWidget(m_search, 1);
    left->addLayout(filters);
    m_list = new QListWidget(this);
    m_list->setViewMode(QListView::IconMode);
    m_list->setIconSize(QSize(117, 169));
    m_list->setGridSize(QSize(131, 190));
    m_list->setResizeMode(QListView::Adjust);
    m_list->setMovement(QListView::Static);
    m_list->setUniformItemSizes(true);
    m_list->setMinimumWidth(560);
    m_list->setStyleSheet(QStringLiteral(
        "QListWidget::item:selected { background: #e9b949; border-radius: 6px; color: transparent; }"));
    left->addWidget(m_list, 1);
    m_count = new QLabel(this);
    left->addWidget(m_count);
    lay->addLayout(left, 3);
    m_view = new CardView(d, this);
    lay->addWidget(m_view, 2);
    connect(m_side, &QComboBox::currentIndexChanged, this, &CardBrowser::rebuild);
    connect(m_deck, &QComboBox::currentIndexChanged, this, &CardBrowser::rebuild);
    connect(m_search, &QLineEdit::textChanged, this, &CardBrowser::rebuild);
    connect(m_list, &QListWidget::currentItemChanged, this, [this](QListWidgetItem* it) {
        if (it) {
            const int c = it->data(Qt::UserRole).toInt();
            m_view->setCard(c, placeBadge(c));
        }
    });
    rebuild();
    resize(1020, 640);
}

QString CardBrowser::placeBadge(int card) const {
    if (card < 0 || static_cast<size_t>(card) >= m_places.size())
        return {};
    switch (m_places[static_cast<size_t>(card)]) {
    case rules::CardPlace::Later:
        return QStringLiteral("not yet in play");
    case rules::CardPlace::Played:
        return QStringLiteral("played");
    case rules::CardPlace::Removed:
        return QStringLiteral("removed");
    case rules::CardPlace::InCombat:
        return QStringLiteral("in battle");
    default:
        return {};
    }
}

void CardBrowser::setState(const rules::GameState* s) {
    m_places = s ? s->cardPlace : std::vector<rules::CardPlace>{};
    rebuild();
}

void CardBrowser::rebuild() {
    const int current = m_list->currentItem() ? m_list->currentItem()->data(Qt::UserRole).toInt() : -1;
    m_list->clear();
    const int side = m_side->currentData().toInt();
    const int deck = m_deck->currentData().toInt();
    const QString q = m_search->text().trimmed();
    int shown = 0;
    for (qsizetype i = 0; i < d.cards.size(); ++i) {
        const Card& c = d.cards[i];
        if (side >= 0 && (c.side == Side::Catholic ? 0 : 1) != side)
            continue;
        if (deck == 100 ? !c.combat : (deck >= 0 && static_cast<int>(c.deck) != deck))
            continue;
        if (!q.isEmpty() && !c.title.contains(q, Qt::CaseInsensitive) &&
            !c.event.contains(q, Qt::CaseInsensitive) && c.id.compare(q, Qt::CaseInsensitive) != 0)
            continue;
        QPixmap pm(QSize(117, 169) * devicePixelRatioF());
        pm.setDevicePixelRatio(devicePixelRatioF());
        pm.fill(Qt::transparent);
        {
            QPainter p(&pm);
            CardLook look;
            look.badge = placeBadge(static_cast<int>(i));
            look.dimmed = !look.badge.isEmpty() && look.badge != QLatin1String("in battle");
            paintCard(p, QRectF(0, 0, 117, 169), d, static_cast<int>(i), look);
        }
        // The same picture when selected (Qt's selected icon would tint the card); the selection shows as
        // the gold ground around it (the style sheet in the constructor).
        QIcon icon(pm);
        icon.addPixmap(pm, QIcon::Selected);
        auto* it = new QListWidgetItem(icon, QString(), m_list);
        it->setData(Qt::UserRole, static_cast<int>(i));
        it->setToolTip(QStringLiteral("%1 %2").arg(c.id, c.title));
        if (static_cast<int>(i) == current)
            m_list->setCurrentItem(it);
        ++shown;
    }
    m_count->setText(QStringLiteral("%1 of %2 cards").arg(shown).arg(d.cards.size()));
    if (!m_list->currentItem() && m_list->count())
        m_list->setCurrentRow(0);
}

void CardBrowser::showCard(int card) {
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->data(Qt::UserRole).toInt() == card) {
            m_list->setCurrentRow(i);
            break;
        }
    m_view->setCard(card, placeBadge(card));
}

} // namespace wp
