#include "ordersdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace wp {

namespace {

// What each value means, for the combo boxes.
QString valueText(const QString& key, const QString& value) {
    if (value == QLatin1String("ask"))
        return QStringLiteral("Ask me (a file to me)");
    if (key == QLatin1String("react"))
        return value == QLatin1String("in") ? QStringLiteral("Withdraw inside the fortress")
                                            : QStringLiteral("Stay outside");
    if (key == QLatin1String("cards"))
        return QStringLiteral("Play no combat card");
    if (key == QLatin1String("losses"))
        return QStringLiteral("Cheapest: remove the fewest Combat Factors");
    if (key == QLatin1String("peace"))
        return QStringLiteral("Decline (when the rules allow it)");
    if (key == QLatin1String("forced"))
        return QStringLiteral("Take it when there is only one choice");
    return value;
}

QString label(const QString& key) {
    if (key == QLatin1String("react"))
        return QStringLiteral("Fortress reaction (11.23)");
    if (key == QLatin1String("cards"))
        return QStringLiteral("Combat cards (12.23)");
    if (key == QLatin1String("losses"))
        return QStringLiteral("Loss allocation (12.31)");
    if (key == QLatin1String("retreat"))
        return QStringLiteral("Retreat (12.5)");
    if (key == QLatin1String("peace"))
        return QStringLiteral("Offer of peace (5.3)");
    return QStringLiteral("Forced decisions");
}

} // namespace

OrdersDialog::OrdersDialog(const GameData& gameData, const save::StandingOrders& mine,
                           const save::StandingOrders& opponent, QWidget* parent)
    : QDialog(parent), d(gameData), m_orders(mine) {
    setWindowTitle(QStringLiteral("Standing Orders"));
    setObjectName(QStringLiteral("ordersDialog"));
    auto* lay = new QVBoxLayout(this);
    auto* intro = new QLabel(
        QStringLiteral("<p>Standing orders answer some of your decisions during your opponent's play, so "
                       "that his copy goes on without sending you a file. They go with your next file "
                       "and hold until you change them.</p><p><b>They are not secret:</b> your opponent "
                       "sees them and may play around them. Orders only use what both copies know (never "
                       "your hand): there is no order to play a combat card.</p>"),
        this);
    intro->setWordWrap(true);
    lay->addWidget(intro);
    auto* form = new QFormLayout();
    for (const QString& key : save::StandingOrders::keys()) {
        if (key == QLatin1String("retreat")) {
            m_retreat = new QLineEdit(this);
            m_retreat->setObjectName(QStringLiteral("ordersRetreat"));
            m_retreat->setPlaceholderText(QStringLiteral("e.g. inside,torgau,leipzig,any (empty: ask me)"));
            m_retreat->setToolTip(save::StandingOrders::help(key));
            const QString v = mine.value(key);
            m_retreat->setText(v == QLatin1String("ask") ? QString() : v);
            form->addRow(label(key), m_retreat);
            continue;
        }
        auto* box = new QComboBox(this);
        box->setObjectName(QStringLiteral("orders_") + key);
        box->setToolTip(save::StandingOrders::help(key));
        for (const QString& v : save::StandingOrders::values(key))
            box->addItem(valueText(key, v), v);
        box->setCurrentIndex(std::max(0, box->findData(mine.value(key))));
        m_boxes.insert(key, box);
        form->addRow(label(key), box);
    }
    lay->addLayout(form);
    auto* theirs = new QLabel(QStringLiteral("<p>Your opponent's standing orders (your copy applies them in "
                                             "your next file): <b>%1</b></p>")
                                  .arg(opponent.text().toHtmlEscaped()),
                              this);
    theirs->setObjectName(QStringLiteral("ordersOpponent"));
    theirs->setWordWrap(true);
    lay->addWidget(theirs);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("ordersError"));
    m_error->setWordWrap(true);
    m_error->setStyleSheet(QStringLiteral("color: #a01010"));
    lay->addWidget(m_error);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(QStringLiteral("Set these orders"));
    buttons->button(QDialogButtonBox::Ok)->setProperty("primary", true);
    connect(buttons, &QDialogButtonBox::accepted, this, &OrdersDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    lay->addWidget(buttons);
    resize(560, 420);
}

void OrdersDialog::accept() {
    save::StandingOrders o;
    QString error;
    for (auto it = m_boxes.begin(); it != m_boxes.end(); ++it)
        if (!o.set(d, it.key(), it.value()->currentData().toString(), &error)) {
            m_error->setText(error);
            return;
        }
    const QString retreat = m_retreat->text().simplified().remove(QLatin1Char(' '));
    if (!o.set(d, QStringLiteral("retreat"), retreat.isEmpty() ? QStringLiteral("ask") : retreat, &error)) {
        m_error->setText(error);
        return;
    }
    m_orders = o;
    QDialog::accept();
}

} // namespace wp
