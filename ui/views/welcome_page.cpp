// SPDX-License-Identifier: Apache-2.0
#include "views/welcome_page.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

#include "reading/report_run.h"
#include "settings/app_settings.h"

namespace trainscope::ui {

WelcomePage::WelcomePage(QWidget* parent)
    : QWidget(parent),
      example_(new QPushButton(tr("Profile the Built-in Example"), this)),
      recent_(new QListWidget(this)) {  // parented: it joins no layout when hidden
    const QStringList recent = AppSettings::recentFiles();
    auto* title =
        new QLabel(tr("<h2>TrainScope</h2>"
                      "<p>See where the time and the memory of one training iteration "
                      "go, down to the line of your code.</p>"));
    title->setAlignment(Qt::AlignCenter);
    title->setWordWrap(true);
    auto* example_hint =
        new QLabel(tr("Runs the built-in MLP (d_model 256) on the CPU for a few seconds and "
                      "shows its profile."));
    example_hint->setAlignment(Qt::AlignCenter);
    example_->setDefault(true);
    example_->setMinimumHeight(40);
    auto* new_profile = new QPushButton(tr("New Profile…"));
    auto* open = new QPushButton(tr("Open Report…"));
    auto* more = new QHBoxLayout;
    more->addStretch();
    more->addWidget(new_profile);
    more->addWidget(open);
    more->addStretch();

    auto* column = new QVBoxLayout;
    column->addStretch();
    column->addWidget(title);
    column->addWidget(example_, 0, Qt::AlignHCenter);
    column->addWidget(example_hint);
    column->addLayout(more);
    if (!recent.isEmpty()) {
        column->addWidget(new QLabel(tr("Recent reports:")));
        // Each path whole, elided in its middle by the list at the width it has (a fixed
        // width left free space beside paths cut short). Elided to no width (INT_MAX is
        // elided to nothing): wider than any screen.
        constexpr int kWholeWidth = 100000;
        recent_->setTextElideMode(Qt::ElideMiddle);
        for (const QString& path : recent) {
            auto* item = new QListWidgetItem(
                recentRunTitle(path, recent_->fontMetrics(), kWholeWidth), recent_);
            item->setToolTip(path);
            item->setData(Qt::UserRole, path);
        }
        recent_->setMaximumHeight(180);
        column->addWidget(recent_);
    } else {
        recent_->hide();
    }
    column->addStretch();
    auto* layout = new QHBoxLayout(this);
    layout->addStretch();
    layout->addLayout(column, 2);
    layout->addStretch();

    connect(example_, &QPushButton::clicked, this, &WelcomePage::exampleRequested);
    connect(new_profile, &QPushButton::clicked, this, &WelcomePage::newProfileRequested);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(recent_, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        emit recentRequested(item->data(Qt::UserRole).toString());
    });
}

}  // namespace trainscope::ui
